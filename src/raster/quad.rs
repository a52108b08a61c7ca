//! 2 x 2 quads of pixels: what the pixel program runs on ([`Quad`]), lane by lane ([`Lane`]).

/// One pixel of a quad: where it is and what its attributes are blended by there.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Lane {
    /// `SV_Position`: the pixel centre x and y, the interpolated depth (bias included, not clamped: 16.3.1) and the
    /// reciprocal of the screen-linear interpolation of 1/w (16.3).
    pub position: [f32; 4],
    /// The depth the output merger tests: the position's z clamped to the viewport's depth range (15.6, 17.10).
    pub depth: f32,
    /// The weights of the drawn triangle's three vertices for a perspective-correct attribute (`linear`, the
    /// default, and its centroid and sample variants, which are the centre's here).
    pub perspective: [f64; 3],
    /// The weights of the drawn triangle's three vertices for a screen-linear attribute (`noperspective`).
    pub linear: [f64; 3],
}

impl Lane {
    /// An attribute blended from the drawn triangle's vertex `values` by `weights` (this lane's `perspective` or
    /// `linear`), rounded to float32 once.
    pub fn blend(weights: [f64; 3], values: [f32; 3]) -> f32 {
        let [w0, w1, w2] = weights;
        let [v0, v1, v2] = values.map(f64::from);
        (w0 * v0 + w1 * v1 + w2 * v2) as f32
    }
}

/// A 2 x 2 quad of pixels aligned to even coordinates, from one triangle of a clipped polygon. Lane 0 is the top-left
/// pixel (`x`, `y`), 1 the one right of it, 2 the one below it, 3 the one diagonal. A lane the triangle does not cover
/// is a helper: its values are extrapolated from the triangle's plane, for derivatives, and it writes nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Quad {
    /// Column of the top-left pixel (even).
    pub x: u32,
    /// Row of the top-left pixel (even).
    pub y: u32,
    /// Bit `i` set when lane `i` is covered: when it covers at least one sample (3.5.4).
    pub covered: u8,
    /// Each lane's covered samples (bit `s` is sample `s`; bit 0 alone with one sample a pixel): the triangle's
    /// coverage of the pixel's sample positions (3.5.4), 0 for a helper.
    pub samples: [u32; 4],
    /// Whether the triangle is front facing (`SV_IsFrontFace`).
    pub front_facing: bool,
    /// Which piece of the primitive the quad comes from: a triangle of the clipped polygon's fan, of an expanded
    /// point or quadrilateral line, or a line (of a wireframe triangle's edges), in drawing order.
    pub part: usize,
    /// The four lanes.
    pub lanes: [Lane; 4],
    /// For an alpha-antialiased line (3.4.4), each lane's coverage, which multiplies the program's `o0.a`.
    pub line_alpha: Option<[f32; 4]>,
}

impl Quad {
    /// Whether lane `lane` (0..4) is covered.
    pub fn is_covered(&self, lane: usize) -> bool {
        lane < 4 && self.covered >> lane & 1 == 1
    }

    /// The samples lane `lane` (0..4) covers (0 for a helper or a lane past 4).
    pub fn sample_mask(&self, lane: usize) -> u32 {
        self.samples.get(lane).copied().unwrap_or(0)
    }

    /// The pixel lane `lane` (0..4) is at.
    pub fn pixel(&self, lane: usize) -> (u32, u32) {
        (
            self.x.saturating_add(u32::from(lane & 1 == 1)),
            self.y.saturating_add(u32::from(lane & 2 == 2)),
        )
    }
}
