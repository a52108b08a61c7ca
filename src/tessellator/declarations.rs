//! The tessellator's state, as a hull shader declares it (11.7.15, 22.3.15 to 22.3.17).

/// The patch's domain (`dcl_tessellator_domain`, 22.3.16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Domain {
    /// Lines of constant V over a quad (11.6).
    Isoline,
    /// A triangle with barycentric coordinates U, V, W.
    Triangle,
    /// A quad with coordinates U, V.
    Quad,
}

/// How TessFactors divide an edge (`dcl_tessellator_partitioning`, 22.3.17; 11.7.3, 11.7.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Partitioning {
    /// Factors rounded up to integers, each with its own parity.
    Integer,
    /// Powers of two: the same as integer to the tessellator (the hull shader rounds).
    Pow2,
    /// Odd segment counts, points moving smoothly between them.
    FractionalOdd,
    /// Even segment counts, points moving smoothly between them.
    FractionalEven,
}

/// What the tessellator connects its points into (`dcl_tessellator_output_primitive`, 22.3.15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputPrimitive {
    /// Every point once.
    Point,
    /// Line segments (isolines only).
    Line,
    /// Triangles clockwise in the domain (triangle and quad domains).
    TriangleCw,
    /// Triangles counter-clockwise in the domain.
    TriangleCcw,
}

impl OutputPrimitive {
    /// Indices per primitive: 1, 2 or 3.
    pub fn vertices(self) -> usize {
        match self {
            OutputPrimitive::Point => 1,
            OutputPrimitive::Line => 2,
            OutputPrimitive::TriangleCw | OutputPrimitive::TriangleCcw => 3,
        }
    }
}
