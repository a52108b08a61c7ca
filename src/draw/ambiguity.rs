//! The ambiguity mask: the pixels whose coverage by a triangle depends on how its vertices were rounded.
//!
//! D3D11 rasterizes from positions snapped to 1/256 of a pixel (15.16), and so does Iridia. A renderer that rounds
//! differently, or a capture whose vertex positions went through a slightly different float computation, can cover a
//! pixel centre that lies almost on an edge differently; such a difference is not an error of the shading. For each
//! fan triangle of a clipped polygon that reaches coverage (not culled, non-zero snapped area), a pixel `P` of the
//! triangle's neighbourhood (its bounding box grown by a pixel, within the pixels the draw may cover) is **ambiguous**
//! when, for one of the triangle's three edges `a -> b`:
//!
//! - it is within one snapping step of the snapped edge: `|E(P)| <= max(|bx - ax|, |by - ay|)`, where `E` is the
//!   edge function on the snapped positions in 1/256 pixels (moving `P`, or the edge, by one 1/256 step along x or y
//!   reaches or crosses the edge), or
//! - the edge function on the positions before snapping (the float32 screen positions of 15.6, in f64) has the
//!   opposite sign of the snapped one (snapping moved the edge across the centre),
//!
//! and `P` is inside or within one step of the other two edges (so that only the part of the edge's line that borders
//! the triangle counts). Only edges of the clipped polygon count: the diagonal two fan triangles of one polygon share
//! is rasterized from the same snapped positions by both, so the top-left rule gives a centre on it to exactly one of
//! them, whatever the rounding, and both interpolate the same triangle (a full-screen triangle, clipped to a quad,
//! would otherwise mark the quad's diagonal). A pixel can be ambiguous without being covered (it lies just outside).
//! With multisampled targets the test is made at each sample's position instead of the centre (3.5.3: coverage is
//! per sample), and the mask holds one plane of flags per sample, stacked as the targets' sample planes are.
//! Not marked: points, lines and wireframe triangles (their pieces are not a polygon's fan; a line's coverage at a
//! diamond's edge or corner is a tie of its own rule, `fixtures/lines/README.md`), triangles whose snapped area is
//! zero but whose unsnapped area is not (a sliver another rounding would draw), and pixels near where a clip distance
//! (15.4.1) crosses zero.

use crate::raster::{PixelRect, Rasterizer, SamplePattern, Triangle, snap};

/// Twice the signed area of `a`, `b`, `p` (positive when `p` is right of `a -> b`, y down), exact for 16.8
/// positions and pixel centres in i64 (differences below 2^25, products below 2^50).
#[allow(clippy::arithmetic_side_effects)] // the range above
fn edge(a: [i64; 2], b: [i64; 2], p: [i64; 2]) -> i64 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

/// The same in f64 on unsnapped positions, all in 1/256 pixels.
fn edge_f(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

/// One snapping step of the edge `a -> b` in edge-function units: how much `E` changes when a point moves by 1/256
/// pixel along the axis the edge runs least along.
fn step(a: [i64; 2], b: [i64; 2]) -> i64 {
    b[0].saturating_sub(a[0])
        .saturating_abs()
        .max(b[1].saturating_sub(a[1]).saturating_abs())
}

/// A fan triangle of a clipped polygon that reaches coverage, set up for the ambiguity test.
struct Fan {
    /// Snapped corners, in 1/256 pixels.
    fixed: [[i64; 2]; 3],
    /// Unsnapped corners (float32 screen positions), in 1/256 pixels.
    exact: [[f64; 2]; 3],
    /// The edges as corner pairs, clockwise on screen (inside is where the edge function is positive).
    edges: [(usize, usize); 3],
    /// Whether each edge (in `edges`' order) is an edge of the clipped polygon, not a diagonal shared with a
    /// neighbouring fan triangle that reaches coverage.
    outer: [bool; 3],
    /// The pixels to test: the corners' bounding box grown by a pixel, within the pixels the draw may cover.
    bounds: PixelRect,
}

impl Fan {
    /// The corner `i`, snapped.
    fn at(&self, i: usize) -> [i64; 2] {
        self.fixed.get(i).copied().unwrap_or_default()
    }

    /// The corner `i`, unsnapped.
    fn at_exact(&self, i: usize) -> [f64; 2] {
        self.exact.get(i).copied().unwrap_or_default()
    }

    /// Whether the coverage of the point `offset` (1/256 pixel) from pixel (`px`, `py`)'s centre by the fan
    /// triangle depends on rounding (the module's rule; `[0, 0]` is the centre).
    fn ambiguous(&self, px: i64, py: i64, offset: [i64; 2]) -> bool {
        let centre = [
            px.saturating_mul(256).saturating_add(128).saturating_add(offset[0]),
            py.saturating_mul(256).saturating_add(128).saturating_add(offset[1]),
        ];
        let centre_f = centre.map(|c| c as f64);
        let values = self.edges.map(|(a, b)| edge(self.at(a), self.at(b), centre));
        let steps = self.edges.map(|(a, b)| step(self.at(a), self.at(b)));
        let near = values.iter().zip(&steps).all(|(v, s)| *v >= s.saturating_neg());
        near && self
            .edges
            .iter()
            .zip(values.iter().zip(&steps))
            .zip(self.outer)
            .filter(|(_, outer)| *outer)
            .any(|((&(a, b), (&v, &s)), _)| {
                let unsnapped = edge_f(self.at_exact(a), self.at_exact(b), centre_f);
                v.saturating_abs() <= s || ((unsnapped > 0.) != (v > 0) && unsnapped != 0.)
            })
    }
}

/// The fan triangles of `triangle`'s clipped polygon that reach coverage.
fn fans(triangle: &Triangle, raster: &Rasterizer) -> Vec<Fan> {
    let vertices = triangle.polygon().vertices();
    let mut fans = Vec::new();
    if vertices.len() < 3 || triangle.parts().is_empty() {
        return fans;
    }
    let screen: Vec<[f32; 3]> = vertices
        .iter()
        .map(|v| raster.viewport().to_screen(v.position))
        .collect();
    // fan triangle k (corners 0, k, k + 1) reaches coverage exactly when the rasterizer kept a part of its snapped
    // corners
    let snapped_fan = |k: usize| {
        [0, k, k.saturating_add(1)].map(|i| {
            let [x, y, _] = screen.get(i).copied().unwrap_or_default();
            [snap(x), snap(y)]
        })
    };
    let last = vertices.len().saturating_sub(1);
    let reaches: Vec<bool> = (0..last)
        .map(|k| k >= 1 && triangle.parts().iter().any(|p| p.snapped() == snapped_fan(k)))
        .collect();
    let drawn = |k: usize| reaches.get(k).copied().unwrap_or(false);
    for k in 1..last {
        if !drawn(k) {
            continue;
        }
        let corners = [0, k, k.saturating_add(1)].map(|i| screen.get(i).copied().unwrap_or_default());
        let fixed = snapped_fan(k);
        let [f0, f1, f2] = fixed;
        let edges = if edge(f0, f1, f2) > 0 {
            [(0, 1), (1, 2), (2, 0)]
        } else {
            [(0, 2), (2, 1), (1, 0)]
        };
        // corners 0-1 are the diagonal shared with fan triangle k - 1, corners 2-0 the one shared with k + 1
        let outer = edges.map(|(a, b)| match (a.min(b), a.max(b)) {
            (0, 1) => !drawn(k.saturating_sub(1)),
            (0, 2) => !drawn(k.saturating_add(1)),
            _ => true,
        });
        let xs = fixed.map(|p| p[0].div_euclid(256));
        let ys = fixed.map(|p| p[1].div_euclid(256));
        let bounds = PixelRect {
            left: xs.iter().copied().min().unwrap_or(0).saturating_sub(1),
            top: ys.iter().copied().min().unwrap_or(0).saturating_sub(1),
            right: xs.iter().copied().max().unwrap_or(0).saturating_add(2),
            bottom: ys.iter().copied().max().unwrap_or(0).saturating_add(2),
        }
        .intersect(raster.allowed());
        fans.push(Fan {
            fixed,
            exact: corners.map(|[x, y, _]| [f64::from(x) * 256., f64::from(y) * 256.]),
            edges,
            outer,
            bounds,
        });
    }
    fans
}

/// Where a draw's ambiguity mask is tested and kept: the rasterizer's sample pattern and the targets' planes.
#[derive(Clone, Copy, Debug)]
pub(super) struct MaskShape<'p> {
    /// The rasterizer's sample positions.
    pub pattern: &'p SamplePattern,
    /// The targets' width and height in pixels.
    pub size: [u32; 2],
    /// How many sample planes the mask holds (the targets' samples).
    pub planes: u32,
    /// Whether the rasterizer's sample `s` is the targets' sample `s` (else, under a ForcedSampleCount, a pixel
    /// ambiguous at any rasterizer sample is ambiguous in every plane: 3.5.6 covers every output sample).
    pub per_sample: bool,
}

/// Marks in `mask` (`shape.planes` planes of `shape.size` pixels, stacked) the samples whose coverage by `triangle`
/// is ambiguous; with one sample a pixel, the pixels whose centre's is.
pub(super) fn mark(triangle: &Triangle, raster: &Rasterizer, shape: MaskShape<'_>, mask: &mut [bool]) {
    let [width, height] = shape.size;
    let plane = u64::from(width).saturating_mul(u64::from(height));
    let everywhere = PixelRect {
        left: 0,
        top: 0,
        right: i64::from(width),
        bottom: i64::from(height),
    };
    mark_within(&fans(triangle, raster), shape, everywhere, |plane_index, px, py| {
        let first = plane.saturating_mul(u64::from(plane_index));
        let index = u64::try_from(py)
            .ok()
            .zip(u64::try_from(px).ok())
            .map(|(y, x)| first.saturating_add(y.saturating_mul(u64::from(width)).saturating_add(x)))
            .and_then(|i| usize::try_from(i).ok());
        if let Some(slot) = index.and_then(|i| mask.get_mut(i)) {
            *slot = true;
        }
    });
}

/// Pixel (`x`, `y`) alone, for a pixel history that does not draw the whole draw: marks in `planes` (one flag per
/// mask plane, `shape.planes` of them; none when empty) what [`mark`] marks at the pixel, and says whether the
/// pixel's coverage by `triangle` is ambiguous at its centre or any sample of `shape`'s pattern. The triangle's fans
/// are made once for both.
pub(super) fn at_pixel(
    triangle: &Triangle,
    raster: &Rasterizer,
    shape: MaskShape<'_>,
    (x, y): (u32, u32),
    planes: &mut [bool],
) -> bool {
    let fans = fans(triangle, raster);
    let (px, py) = (i64::from(x), i64::from(y));
    if !planes.is_empty() {
        let window = PixelRect {
            left: px,
            top: py,
            right: px.saturating_add(1),
            bottom: py.saturating_add(1),
        };
        mark_within(&fans, shape, window, |plane_index, _, _| {
            if let Some(slot) = usize::try_from(plane_index).ok().and_then(|p| planes.get_mut(p)) {
                *slot = true;
            }
        });
    }
    let pattern = shape.pattern;
    fans.iter().any(|fan| {
        fan.bounds.contains(px, py)
            && (fan.ambiguous(px, py, [0, 0])
                || (0..pattern.count()).any(|s| fan.ambiguous(px, py, pattern.offset_256(s))))
    })
}

/// Calls `set(plane, x, y)` for every mask flag within `window` that a triangle's `fans` make ambiguous ([`mark`]'s
/// rule).
fn mark_within(fans: &[Fan], shape: MaskShape<'_>, window: PixelRect, mut set: impl FnMut(u32, i64, i64)) {
    for fan in fans {
        let bounds = fan.bounds.intersect(window);
        for py in bounds.top..bounds.bottom {
            for px in bounds.left..bounds.right {
                for sample in 0..shape.pattern.count() {
                    if !fan.ambiguous(px, py, shape.pattern.offset_256(sample)) {
                        continue;
                    }
                    if shape.per_sample {
                        set(sample, px, py);
                    } else {
                        (0..shape.planes).for_each(|p| set(p, px, py));
                        break;
                    }
                }
            }
        }
    }
}
