//! The rasterizer: how a triangle, line or point in clip space becomes the pixels a pixel program runs for, with the
//! weights its attributes are blended by and the depth the output merger tests. The draw module runs the vertex
//! program, hands each primitive's clip-space positions to a [`Rasterizer`] ([`Rasterizer::primitive`]), and runs the
//! pixel program on the [`Quad`]s it gets back; the pixel inspector asks the set-up primitive (a [`Triangle`]) about
//! one pixel ([`Triangle::pixel`]) through the very code the full walk uses, so the two cannot disagree. No shader is
//! run here.
//!
//! Every rule is the D3D11.3 functional specification's; where it leaves a choice, the choice is said (WARP's where it
//! is known):
//!
//! - **Clipping (15.4).** The clip volume is `-w <= x <= w`, `-w <= y <= w` and, while depth clipping is on,
//!   `0 <= z <= w`. 15.4 lets an implementation clip x and y to a wider guard band; WARP clips to the viewport itself
//!   (measured for the seed's draw module), so a vertex the clipper makes on a side of the viewport is snapped like any
//!   other and a vertex near the camera plane, whose own screen position is far outside, is never snapped. With depth
//!   clipping off z is not clipped (the x and y planes already keep `w >= 0`) and the depth is clamped later. A vertex
//!   the clipper makes lies exactly on its plane and carries its weights on the drawn triangle's three vertices in clip
//!   space; it is computed from the inside end of the cut edge, so two triangles that share an edge share its cut
//!   vertices. A triangle whose clipped polygon reaches the clip-space origin (`w = 0`, which the planes allow only
//!   with `x = y = 0`) has its three vertices' x, y, w linearly dependent: its plane holds the eye, it is a line on
//!   screen, and it draws nothing. A NaN in a position draws nothing (15.4, 15.16.1). So does an infinity, which 15.4
//!   allows ("may or may not result in a discarded primitive"): a vertex with one has no screen position to divide out,
//!   nor finite weights. Finite positions, however large, are clipped in f64 and stay finite (15.16.1's stability
//!   range).
//! - **Viewport (15.5, 15.6).** In float32 as 15.6 writes it: `X = (x/w + 1) * Width * 0.5 + TopLeftX`,
//!   `Y = (1 - y/w) * Height * 0.5 + TopLeftY` (y down), `Z = MinDepth + z/w * (MaxDepth - MinDepth)`. A NaN in X, Y or
//!   Z draws nothing (15.16.1). The viewport's extents must satisfy 15.6.1 ([`Rasterizer::new`] refuses others).
//! - **Snapping (15.16, 3.4.1, 3.2.4.1).** X and Y become 16.8 fixed point: to the nearest 1/256 of a pixel, a tie to
//!   the even step, saturating at the format's range (3.2.4.1's reference conversion, which 15.16 makes exact for
//!   D3D11). Coverage, facing and interpolation all use the snapped positions (15.16.2).
//! - **Facing and culling (15.11, 15.12).** The sign of the snapped area decides: with y down a clockwise triangle is
//!   front facing unless the state says counter-clockwise. Culling drops the facing it names; a triangle of zero
//!   snapped area draws nothing (15.11.1 calls it back facing, which matters only to wireframe). A clipped polygon is
//!   drawn as the fan of triangles from its first vertex, each snapped, faced and culled on its own.
//! - **Samples (3.5.3, 3.5.4, 19.2.4).** Coverage is tested at each sample position of the draw's pattern
//!   ([`SamplePattern`], `samples.rs`: the standard and centre patterns of 1, 2, 4, 8 and 16 samples), each the pixel
//!   centre moved by the pattern's offset in 1/16 pixel, by the rule below; a lane's coverage is the mask of its
//!   covered samples ([`Quad::samples`]), and a pixel with any covered sample is covered. With one sample the one
//!   position is the centre, as the rule below states it. The pixels walked are those one of whose samples the
//!   snapped bounding box holds. Values at another point than the centre (a sample's depth, sample-frequency and
//!   centroid attributes) come from the same plane ([`Part::lane_at`]).
//! - **Coverage (3.4.2).** A pixel is covered when its centre (`x + 0.5, y + 0.5`: 3.3.1) is inside the snapped
//!   triangle, or on an edge that is a top edge (horizontal, with the triangle below it) or a left edge (not
//!   horizontal, with the triangle right of it) — the top-left rule, so triangles that share an edge cover each pixel
//!   along it once. Only pixels in the render target, the viewport's implicit scissor (its extents rounded towards
//!   negative infinity: 15.7) and, when enabled, the scissor rectangle (15.7) are covered.
//! - **Interpolation (16.3, 16.4, 15.16.2).** At the pixel centre (one sample a pixel, so centroid and sample
//!   interpolation are the centre's), from the snapped positions: the screen-linear weights of the fan triangle's
//!   vertices, and the perspective-correct ones (each over its vertex's w, normalised). Both are handed back as weights
//!   on the drawn triangle's three vertices: a perspective-correct attribute of a clipped vertex is the blend of the
//!   triangle's by its clip-space weights, a screen-linear (`noperspective`) one by its screen weights (each clip-space
//!   weight times its vertex's w, normalised), as 16.4 asks the clipper to honour the mode. A flat (`nointerpolation`)
//!   attribute is the provoking vertex's, the drawn triangle's first. `SV_Position` is the pixel centre, the
//!   interpolated depth and the reciprocal of the screen-linear 1/w (16.3).
//! - **Depth (15.10, 16.3.1, 17.10).** Linear in screen space from the snapped positions. The depth bias of 15.10 is
//!   worked out once per fan triangle in float32 and added to its vertices' depths before interpolation: `DepthBias`
//!   times r (`2^-bits` for a UNORM depth buffer, where 15.10's "minimum representable value" would be
//!   `1 / (2^bits - 1)`, under a step apart for any bias below `2^bits`;
//!   `2^(exponent of the largest |z| of the triangle - 23)` for a float one, the exponent of 0 and of denormals read as
//!   -127, which makes r 0) plus `SlopeScaledDepthBias` times `max(|dz/dx|, |dz/dy|)` (only when it is non-zero),
//!   clamped by `DepthBiasClamp` when that is non-zero, and added only when `DepthBias` or `SlopeScaledDepthBias` is
//!   non-zero. `SV_Position.z` is that depth unclamped (16.3.1); the depth the output merger tests is it clamped to the
//!   viewport's `[MinDepth, MaxDepth]` (15.6, 17.10), also when depth clipping is off (15.4).
//! - **Quads (16.8, 16.13).** Pixels come in 2 x 2 quads aligned to even pixels, over the fan triangle's covered
//!   pixels; a lane the triangle does not cover is a helper whose weights are extrapolated from the same plane, so
//!   derivatives across the quad are the triangle's. A quad with no covered lane is not produced.
//!
//! Points and lines (`shapes.rs`, coverage in [`line`]):
//!
//! - **Clipping (15.4, 3.4.3.1).** A line is cut (in f64, on its parameter) to `0 <= z <= w` while depth clipping is
//!   on, and along x and y only to a guard band 32000 pixels either side of the origin, which keeps its ends in the
//!   16.8 range: 3.4.3.1 lets a line clipped to the viewport set one pixel fewer at its edge and allows either; the
//!   real D3D11 of `fixtures/lines` draws lines leaving the viewport as if uncut. A cut end carries its weights on the
//!   line's two vertices. A point is drawn when its vertex is inside the same planes (a point is not cut: it is in or
//!   out), its square then covering what it covers inside the allowed pixels.
//! - **Line mode (15.14.1).** `MultisampleEnable` picks quadrilateral lines, whatever the sample count; otherwise
//!   `AntialiasedLineEnable` picks alpha-antialiased lines, and neither aliased ones ([`LineMode`]).
//! - **Aliased lines (3.4.3).** The diamond-exit rule on the snapped ends ([`line::AliasedLine`]). A covered pixel
//!   has every sample covered (15.14.1: the rule knows no samples). Attributes and depth are blended at the pixel
//!   centre's parameter along the line's major axis (0 at the start, 1 at the end; the real D3D11 of `fixtures/lines`
//!   measures this within 1e-4): screen-linear attributes and the depth by `(1 - t, t)`, perspective-correct ones by
//!   those over each end's w, normalised (16.4); across the line they do not vary (15.14.1). A sample or centroid
//!   point takes its own coordinate on the major axis.
//! - **Alpha-antialiased lines (3.4.4).** The spec leaves the coverage to the implementation ("estimated by some
//!   algorithm", with a 3 x 3 kernel in its reference); here it is the area of each pixel's square inside the
//!   rectangle of width 1 whose short sides' middles are the snapped ends (a box filter, exact in f64: the alphas of
//!   a line sum to its length, 3.4.4's "total contribution ... equal to the visible area"). A pixel of non-zero area
//!   is covered, every sample of it, and its coverage multiplies the program's `o0.a` (`Quad::line_alpha`);
//!   attributes are as for aliased lines.
//! - **Quadrilateral lines (3.4.5).** The rectangle 1.4 wide around the line, no longer than it, its corners worked
//!   out in f64 from the unsnapped ends and snapped (3.4.1: expansion comes before snapping), drawn as the two
//!   triangles (corners 0 1 2 and 0 2 3) under the triangle rules per sample, each end's attributes and depth at its
//!   two corners, so values are the triangles' planes'.
//! - **Points (3.4.6).** A 1 x 1 square around the point, its corners snapped, as two triangles in a Z (top-left,
//!   top-right, bottom-left; top-right, bottom-right, bottom-left) under the triangle rules per sample (the top-left
//!   rule makes that `[left, right) x [top, bottom)`), the vertex's attributes and depth everywhere. Cull modes do not
//!   apply (3.4.6).
//! - **Facing (15.12) and depth bias (15.10).** Points and lines are front facing and get no depth bias.
//! - **Wireframe (15.13).** A triangle in `WIREFRAME` fill is clipped as a solid one; each edge of its clipped polygon
//!   that lies on an edge of the triangle (not one the clipper made) is drawn as a line of the line mode, in the
//!   polygon's order (v0 -> v1, v1 -> v2, v2 -> v0 unclipped), when the fan triangle it borders survives culling
//!   (one of no snapped area faces back, 15.11); the line faces as that fan triangle and its ends get that fan
//!   triangle's depth bias. An edge two triangles share is drawn by both (each draws its own lines).
//!
//! The pieces of a primitive (a solid triangle's fan triangles, a point's or quadrilateral line's two triangles, a
//! line, a wireframe triangle's edges) are walked one after the other, each in its own quads, so a quad along the
//! diagonal of a point square or quadrilateral line is shaded once per triangle (each writing its own samples), and a
//! pixel two wireframe edges cross is drawn twice.

mod clip;
pub mod line;
mod quad;
mod samples;
mod setup;
mod shapes;
mod walk;

pub use clip::{ClipVertex, MAX_POLYGON, Polygon, clip_triangle};
pub use quad::{Lane, Quad};
pub use samples::{
    CENTER_MULTISAMPLE_PATTERN, MAX_SAMPLES, STANDARD_MULTISAMPLE_PATTERN, SamplePattern, center_pattern, full_mask,
    standard_pattern,
};
pub use setup::{FIXED_MAX, FIXED_MIN, MAX_PARTS, Part, snap};
pub use shapes::LinePiece;
pub use walk::{PixelHit, PixelHits, QuadPosition, Quads, Stripes};

use crate::api::viewport::{Scissor, Viewport};
use crate::input_assembler::PrimitiveKind;
use crate::{Error, Result};

/// Which facing culling drops (15.11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Cull {
    /// No triangle is culled.
    None,
    /// Front-facing triangles are culled.
    Front,
    /// Back-facing triangles are culled (D3D11's default).
    #[default]
    Back,
}

/// How lines are drawn (15.14.1's table: `MultisampleEnable` and `AntialiasedLineEnable`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineMode {
    /// Aliased lines (3.4.3): both states false.
    #[default]
    Aliased,
    /// Alpha-antialiased lines (3.4.4): `AntialiasedLineEnable` without `MultisampleEnable`.
    AlphaAntialiased,
    /// Quadrilateral lines (3.4.5): `MultisampleEnable`, whatever the sample count.
    Quadrilateral,
}

impl LineMode {
    /// The line mode of 15.14.1's table for the rasterizer state's `MultisampleEnable` and `AntialiasedLineEnable`.
    pub fn of(multisample_enable: bool, antialiased_line_enable: bool) -> Self {
        match (multisample_enable, antialiased_line_enable) {
            (true, _) => LineMode::Quadrilateral,
            (false, true) => LineMode::AlphaAntialiased,
            (false, false) => LineMode::Aliased,
        }
    }
}

/// The rasterizer state a triangle's setup reads (15.1); the fill mode and line mode are set apart
/// ([`Rasterizer::with_lines`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RasterizerState {
    /// Which facing is dropped.
    pub cull: Cull,
    /// Whether a counter-clockwise triangle (y down, on screen) is front facing.
    pub front_counter_clockwise: bool,
    /// Whether triangles are clipped to `0 <= z <= w` (15.4).
    pub depth_clip: bool,
    /// The constant depth bias, in units of the depth buffer's r (15.10).
    pub depth_bias: i32,
    /// The largest bias magnitude, on the side its sign names; 0 clamps nothing (15.10).
    pub depth_bias_clamp: f32,
    /// The factor of the triangle's largest depth slope in the bias (15.10).
    pub slope_scaled_depth_bias: f32,
    /// Whether the scissor rectangle applies (15.7).
    pub scissor_enable: bool,
}

impl Default for RasterizerState {
    /// D3D11's default rasterizer state: back faces culled, clockwise front, depth clipping on, no bias, no scissor.
    fn default() -> Self {
        Self {
            cull: Cull::Back,
            front_counter_clockwise: false,
            depth_clip: true,
            depth_bias: 0,
            depth_bias_clamp: 0.,
            slope_scaled_depth_bias: 0.,
            scissor_enable: false,
        }
    }
}

/// The kind of depth buffer the output merger holds, which sets the unit of the constant depth bias (15.10). With no
/// depth buffer bound, 15.10 takes the UNORM formula without saying which r; the bias then moves only `SV_Position.z`,
/// and the caller chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthFormat {
    /// A UNORM depth buffer of `bits` bits (16 for D16, 24 for D24S8): r is `2^-bits`.
    Unorm {
        /// Bits of depth, 1 to 32.
        bits: u32,
    },
    /// A float32 depth buffer (D32, D32S8X24): r is `2^(e - 23)`, e the exponent of the triangle's largest |z|.
    Float,
}

/// A rectangle of whole pixels: columns `left..right`, rows `top..bottom`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PixelRect {
    /// First column inside.
    pub left: i64,
    /// First row inside.
    pub top: i64,
    /// First column past the right edge.
    pub right: i64,
    /// First row past the bottom edge.
    pub bottom: i64,
}

impl PixelRect {
    /// A viewport's implicit scissor (15.6, 15.7): its left, top, right and bottom edges after the viewport
    /// transform, each rounded towards negative infinity; the right and bottom ones are exclusive.
    pub fn of_viewport(viewport: &Viewport) -> PixelRect {
        let right = viewport.x + viewport.width;
        let bottom = viewport.y + viewport.height;
        PixelRect {
            left: viewport.x.floor() as i64,
            top: viewport.y.floor() as i64,
            right: right.floor() as i64,
            bottom: bottom.floor() as i64,
        }
    }

    /// The pixels in both rectangles.
    pub fn intersect(self, other: PixelRect) -> PixelRect {
        PixelRect {
            left: self.left.max(other.left),
            top: self.top.max(other.top),
            right: self.right.min(other.right),
            bottom: self.bottom.min(other.bottom),
        }
    }

    /// Whether no pixel is inside.
    pub fn is_empty(&self) -> bool {
        self.left >= self.right || self.top >= self.bottom
    }

    /// Whether pixel (`x`, `y`) is inside.
    pub fn contains(&self, x: i64, y: i64) -> bool {
        (self.left..self.right).contains(&x) && (self.top..self.bottom).contains(&y)
    }
}

/// What became of a triangle in the rasterizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriangleFate {
    /// At least one triangle of its clipped polygon reached coverage (it may still cover no pixel).
    Rasterized,
    /// Clipping left less than a triangle.
    ClippedAway,
    /// A position was NaN, in clip space or after the viewport transform (15.4, 15.16.1).
    NotANumber,
    /// A clip-space position was infinite, which 15.4 lets an implementation discard.
    Infinite,
    /// Every triangle of its clipped polygon has zero area once snapped, or the polygon reaches the clip-space origin.
    ZeroArea,
    /// Every triangle of its clipped polygon with an area was culled.
    Culled,
}

/// Counts of what the rasterizer did with the triangles of a draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RasterStats {
    /// Triangles set up.
    pub triangles: usize,
    /// Triangles that reached coverage.
    pub rasterized: usize,
    /// Triangles clipping removed entirely.
    pub clipped_away: usize,
    /// Triangles with a NaN position.
    pub not_a_number: usize,
    /// Triangles with an infinite position.
    pub infinite: usize,
    /// Triangles of no snapped area.
    pub zero_area: usize,
    /// Triangles culled by their facing.
    pub culled: usize,
}

impl RasterStats {
    /// Count one triangle that met `fate`.
    pub fn record(&mut self, fate: TriangleFate) {
        let count = match fate {
            TriangleFate::Rasterized => &mut self.rasterized,
            TriangleFate::ClippedAway => &mut self.clipped_away,
            TriangleFate::NotANumber => &mut self.not_a_number,
            TriangleFate::Infinite => &mut self.infinite,
            TriangleFate::ZeroArea => &mut self.zero_area,
            TriangleFate::Culled => &mut self.culled,
        };
        *count = count.saturating_add(1);
        self.triangles = self.triangles.saturating_add(1);
    }
}

/// The fixed-function state of a draw's rasterization, checked, with the rectangle of pixels it may cover.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rasterizer {
    viewport: Viewport,
    state: RasterizerState,
    depth_format: DepthFormat,
    /// The render target, the viewport's implicit scissor and (when enabled) the scissor, intersected.
    allowed: PixelRect,
    /// Where each pixel's samples are (3.5.3; one at the centre unless [`Rasterizer::with_pattern`] says otherwise).
    pattern: SamplePattern,
    /// How lines are drawn.
    line_mode: LineMode,
    /// Whether triangles are drawn as their edges (15.13's `WIREFRAME`).
    wireframe: bool,
    /// Whether a triangle's attributes and depth are interpolated over its unsnapped positions (the
    /// `unsnapped-interpolation` variant, [`crate::draw::variants`]).
    unsnapped_interpolation: bool,
}

impl Rasterizer {
    /// A rasterizer for a `width` x `height` render target. Fails on a viewport 15.6.1 does not allow and on a UNORM
    /// depth format of no bits or more than 32.
    pub fn new(
        viewport: Viewport,
        state: RasterizerState,
        scissor: Scissor,
        target: [u32; 2],
        depth_format: DepthFormat,
    ) -> Result<Self> {
        viewport.check()?;
        if let DepthFormat::Unorm { bits } = depth_format
            && !(1..=32).contains(&bits)
        {
            return Err(Error::new(
                "depth format",
                format!("a UNORM depth buffer of {bits} bits"),
            ));
        }
        let [width, height] = target;
        let mut allowed = PixelRect {
            left: 0,
            top: 0,
            right: i64::from(width),
            bottom: i64::from(height),
        }
        .intersect(PixelRect::of_viewport(&viewport));
        if state.scissor_enable {
            allowed = allowed.intersect(PixelRect {
                left: i64::from(scissor.left),
                top: i64::from(scissor.top),
                right: i64::from(scissor.right),
                bottom: i64::from(scissor.bottom),
            });
        }
        Ok(Self {
            viewport,
            state,
            depth_format,
            allowed,
            pattern: SamplePattern::default(),
            line_mode: LineMode::Aliased,
            wireframe: false,
            unsnapped_interpolation: false,
        })
    }

    /// The same rasterizer interpolating triangles' attributes and depth over their unsnapped positions when `on`
    /// (the `unsnapped-interpolation` variant, [`crate::draw::variants`]; the spec's rule, 15.16.2, is the snapped
    /// ones). Coverage, facing and the depth bias's slope stay on the snapped positions; lines and points are
    /// unchanged.
    #[must_use]
    pub fn with_unsnapped_interpolation(mut self, on: bool) -> Self {
        self.unsnapped_interpolation = on;
        self
    }

    /// Whether triangles are interpolated over their unsnapped positions.
    pub fn unsnapped_interpolation(&self) -> bool {
        self.unsnapped_interpolation
    }

    /// The same rasterizer drawing lines by `line_mode` and, when `wireframe`, triangles as their edges (15.13).
    #[must_use]
    pub fn with_lines(mut self, line_mode: LineMode, wireframe: bool) -> Self {
        self.line_mode = line_mode;
        self.wireframe = wireframe;
        self
    }

    /// How lines are drawn.
    pub fn line_mode(&self) -> LineMode {
        self.line_mode
    }

    /// Whether triangles are drawn as their edges.
    pub fn wireframe(&self) -> bool {
        self.wireframe
    }

    /// The same rasterizer testing coverage at `pattern`'s sample positions (3.5.4): a multisampled draw's.
    #[must_use]
    pub fn with_pattern(mut self, pattern: SamplePattern) -> Self {
        self.pattern = pattern;
        self
    }

    /// Where each pixel's samples are.
    pub fn pattern(&self) -> SamplePattern {
        self.pattern
    }

    /// The viewport.
    pub fn viewport(&self) -> &Viewport {
        &self.viewport
    }

    /// The rasterizer state.
    pub fn state(&self) -> &RasterizerState {
        &self.state
    }

    /// The pixels a triangle may cover: the render target, the viewport's implicit scissor and the scissor.
    pub fn allowed(&self) -> PixelRect {
        self.allowed
    }

    /// Clip, set up and cull the triangle whose clip-space positions are `positions`. The first is the provoking
    /// vertex: a flat (`nointerpolation`) attribute takes its value wherever clipping leaves the triangle (16.4).
    pub fn triangle(&self, positions: [[f32; 4]; 3]) -> Triangle {
        Triangle::new(self, positions)
    }

    /// Set up the line from clip-space `start` to `end` (its first vertex leads).
    pub fn line(&self, start: [f32; 4], end: [f32; 4]) -> Triangle {
        Triangle::line(self, [start, end])
    }

    /// Set up the point at clip-space `position`.
    pub fn point(&self, position: [f32; 4]) -> Triangle {
        Triangle::point(self, position)
    }

    /// Set up a primitive of `kind` from its vertices' clip-space positions as the input assembler lists them: a
    /// triangle's three, a line's start and end (the third, the end again, is not read), a point's one (the first).
    pub fn primitive(&self, kind: PrimitiveKind, positions: [[f32; 4]; 3]) -> Triangle {
        let [a, b, _] = positions;
        match kind {
            PrimitiveKind::Triangle => self.triangle(positions),
            PrimitiveKind::Line => self.line(a, b),
            PrimitiveKind::Point => self.point(a),
        }
    }
}

/// A primitive set up for rasterization, ready to be walked in quads ([`Triangle::quads`]) or asked about one pixel
/// ([`Triangle::pixel`]): a solid triangle's clipped polygon and the fan triangles ([`Part`]s) of it that survived
/// culling; a point's or quadrilateral line's triangles; an aliased or antialiased line ([`LinePiece`]); a
/// wireframe triangle's edges (lines or their quadrilaterals). Its pieces are the parts, then the lines (one kind or
/// the other is empty), numbered so in [`Quad::part`].
#[derive(Clone, Debug)]
pub struct Triangle {
    fate: TriangleFate,
    polygon: Polygon,
    parts: Vec<Part>,
    lines: Vec<LinePiece>,
}

impl Triangle {
    fn new(raster: &Rasterizer, positions: [[f32; 4]; 3]) -> Self {
        let mut triangle = Self {
            fate: TriangleFate::NotANumber,
            polygon: Polygon::default(),
            parts: Vec::new(),
            lines: Vec::new(),
        };
        if positions.iter().flatten().any(|c| c.is_nan()) {
            return triangle;
        }
        if positions.iter().flatten().any(|c| c.is_infinite()) {
            triangle.fate = TriangleFate::Infinite;
            return triangle;
        }
        let polygon = clip_triangle(positions, raster.state.depth_clip);
        triangle.polygon = polygon;
        let vertices = polygon.vertices();
        if vertices.len() < 3 {
            triangle.fate = TriangleFate::ClippedAway;
            return triangle;
        }
        if vertices.iter().any(|v| v.position.iter().any(|c| c.is_nan())) {
            return triangle;
        }
        // the clip-space origin: see the module's rules
        if vertices.iter().any(|v| v.position[3] == 0.) {
            triangle.fate = TriangleFate::ZeroArea;
            return triangle;
        }
        let mut screen = [[0f32; 3]; MAX_POLYGON];
        for (slot, v) in screen.iter_mut().zip(vertices) {
            *slot = raster.viewport.to_screen(v.position);
            if slot.iter().any(|c| c.is_nan()) {
                return triangle;
            }
        }
        let original_w = positions.map(|p| f64::from(p[3]));
        if raster.wireframe {
            triangle.wireframe(
                raster,
                vertices,
                screen.get(..vertices.len()).unwrap_or(&[]),
                original_w,
            );
            return triangle;
        }
        let mut any_area = false;
        // the fan from the polygon's first vertex: (0, k, k + 1)
        for k in 1..vertices.len().saturating_sub(1) {
            let next = k.saturating_add(1);
            let (Some(v0), Some(v1), Some(v2), Some(s0), Some(s1), Some(s2)) = (
                vertices.first(),
                vertices.get(k),
                vertices.get(next),
                screen.first(),
                screen.get(k),
                screen.get(next),
            ) else {
                continue;
            };
            let Some(part) = Part::new([v0, v1, v2], [*s0, *s1, *s2], original_w, raster) else {
                continue;
            };
            any_area = true;
            let culled = match raster.state.cull {
                Cull::None => false,
                Cull::Front => part.front_facing(),
                Cull::Back => !part.front_facing(),
            };
            if culled {
                continue;
            }
            triangle.parts.push(part);
        }
        triangle.fate = if !triangle.parts.is_empty() {
            TriangleFate::Rasterized
        } else if any_area {
            TriangleFate::Culled
        } else {
            TriangleFate::ZeroArea
        };
        triangle
    }

    /// What became of the triangle.
    pub fn fate(&self) -> TriangleFate {
        self.fate
    }

    /// The polygon clipping left (empty when the triangle had a NaN position).
    pub fn polygon(&self) -> &Polygon {
        &self.polygon
    }

    /// The triangles that reach coverage, in drawing order: the fan triangles of the clipped polygon, or a point's or
    /// quadrilateral line's.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// The aliased or antialiased lines drawn, in drawing order.
    pub fn lines(&self) -> &[LinePiece] {
        &self.lines
    }

    /// How far the walk of [`Triangle::quads`] has got, in rows of the triangle pieces' bounds: the rows of the
    /// pieces before `quad`'s and of its piece above it and its own, and the rows of every piece (lines count none).
    /// For progress through a large primitive.
    pub fn rows_through(&self, quad: Option<&Quad>) -> (u64, u64) {
        let rows = |part: &Part| {
            let bounds = part.bounds();
            u64::try_from(bounds.bottom.saturating_sub(bounds.top & !1)).unwrap_or(0)
        };
        let total = self.parts.iter().map(rows).fold(0u64, u64::saturating_add);
        let Some(quad) = quad else {
            return (0, total);
        };
        let before = self
            .parts
            .iter()
            .take(quad.part)
            .map(rows)
            .fold(0u64, u64::saturating_add);
        let within = self.parts.get(quad.part).map_or(0, |part| {
            let top = part.bounds().top & !1;
            u64::try_from(i64::from(quad.y).saturating_add(2).saturating_sub(top))
                .unwrap_or(0)
                .min(rows(part))
        });
        (before.saturating_add(within).min(total), total)
    }

    /// Every quad with a covered lane, piece by piece: a triangle's row by row, a line's in the order it travels.
    pub fn quads(&self) -> Quads<'_> {
        Quads::new(&self.parts, &self.lines)
    }

    /// The pieces that cover pixel (`x`, `y`), in drawing order, each with the quad it is shaded in: one at most for
    /// a solid triangle, unless snapping folded the clipped polygon over itself; one for each wireframe edge through
    /// it. The quads are the ones [`Triangle::quads`] yields.
    pub fn pixel(&self, x: u32, y: u32) -> PixelHits<'_> {
        PixelHits::new(&self.parts, &self.lines, x, y)
    }

    /// The lane values of piece `piece` at the point `offset` (1/256 pixel) from pixel (`px`, `py`)'s centre (a
    /// sample's or the centroid's), from the piece's own plane or line; `None` past the pieces.
    pub fn lane_at(&self, piece: usize, px: i64, py: i64, offset: [i64; 2]) -> Option<Lane> {
        match self.parts.get(piece) {
            Some(part) => Some(part.lane_at(px, py, offset)),
            None => self
                .lines
                .get(piece.checked_sub(self.parts.len())?)
                .map(|line| line.lane_at(px, py, offset)),
        }
    }
}

#[cfg(test)]
mod tests;
