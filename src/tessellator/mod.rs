//! The fixed-function tessellator (D3D11.3 11.5 to 11.7): from a patch's TessFactors, the domain points its domain
//! program runs on and the points, lines or triangles they form.
//!
//! The rules, each the specification's, with the arithmetic of the reference tessellator it points at (11.7.1,
//! Microsoft's `tessellator.cpp`, which Mesa's llvmpipe also runs), so that points and indices come out as the same
//! float32 bits in the same order:
//!
//! - **Factors (10.10).** A triangle has 3 edge factors (the U == 0, V == 0, W == 0 edges) and 1 inside factor; a
//!   quad 4 edge factors (U == 0, V == 0, U == 1, V == 1, clockwise from the left) and 2 inside factors (U, V); an
//!   isoline its line density then its line detail ([`TessFactors`]).
//! - **Culling (11.7.12).** A patch with an edge factor (for an isoline, either factor) at or below 0, or NaN, makes
//!   nothing.
//! - **Clamping (11.7.11).** Edge factors are clamped to the partitioning's range: integer and pow2 `[1, 64]`,
//!   fractional even `[2, 64]`, fractional odd `[1, 63]`; inside factors too, NaN becoming the lower bound, except that
//!   fractional odd raises an inside factor's lower bound to `1 + 2^-16` once any factor (a triangle's: any edge
//!   factor, as the reference checks) is above `1 + 2^-17`, so the patch keeps a picture frame. Integer and pow2 partitioning then round up to an integer. An isoline's density is
//!   clamped to `[1, 64]` and rounded up whatever the partitioning; its detail follows the partitioning (11.7.10).
//!   Pow2 is integer to the hardware: rounding to a power of two is the hull shader's job (11.7.2, 11.7.7.1).
//! - **Maximum (10.13, 11.7.11.1).** `dcl_hs_max_tessfactor` is enforced by the clamping code HLSL adds to the hull
//!   shader; a larger factor reaching the tessellator is undefined. Iridia lowers such a factor to the maximum, as
//!   that code would have, and leaves every other factor (NaN included) alone, so a defined input gives the
//!   reference's output.
//! - **Fixed point (11.7.14).** The clamped factors become 16.16 fixed point (round to nearest even, 3.2.4.1) and every
//!   coordinate is computed in it and converted to float32 last: coordinates are multiples of 2^-16, and a point and
//!   its mirror image across an edge's middle satisfy `1 - u' == u` exactly (11.7.13).
//! - **Partitioning (11.7.3 to 11.7.5, 11.7.7).** An axis divided by a factor gets the segment count rounded up to the
//!   parity (odd for fractional odd, even for fractional even, the rounded factor's own for integer); points sit
//!   symmetrically about the middle, blended between the two neighbouring uniform divisions, the point being split
//!   chosen by the ruler function.
//! - **Pattern (11.7.6).** The inside is a grid of rings (the "picture") tessellated by the inside factors; each edge
//!   is stitched to the first ring by a transition (a side of the "frame"), each point of the denser row joining its
//!   parent on the sparser one; ring sides are rows of quads whose diagonals point to the nearer corner; a quad patch's
//!   centre is a strip of quads, a triangle patch's a triangle or a point. All factors 1 (integer, pow2, fractional
//!   odd) give the bare patch: 4 corners and 2 triangles, or 3 corners and 1 triangle.
//! - **Isolines (11.6, 11.7.8).** `density` lines of constant V from V == 0 (none at V == 1), each divided along U by
//!   the detail factor.
//! - **Output (11.7.15, 11.7.9).** Points with every domain, lines with the isoline domain, triangles (clockwise or
//!   counter-clockwise in the domain, where V is clockwise from U: 11.5) with the triangle and quad domains; other
//!   pairs are refused. The specification leaves the order of points and primitives to the device; Iridia's is the
//!   reference's: points ring by ring, outside in, and triangles side by side in the same walk. Point output lists
//!   each point once, in order.
//!
//! `fixtures/tessellator/` holds 960 patches tessellated by Mesa's llvmpipe, which runs its copy of the reference
//! tessellator; the unit tests require the same coordinates, order and winding.
//!
//! Work is bounded: factors are at most 64, so a patch gives at most [`MAX_POINTS`] points and [`MAX_INDICES`]
//! indices.
//!
//! Use: [`Tessellator::new`] with the hull shader's declarations, then [`Tessellator::tessellate`] per patch.

mod declarations;
mod factors;
mod fixed;
mod isoline;
mod mesh;
mod quad;
mod triangle;

#[cfg(test)]
mod tests;

pub use declarations::{Domain, OutputPrimitive, Partitioning};

use crate::{Error, Result};
use mesh::Mesh;

/// At most this many points come out of one patch: 65 points along each axis of a quad.
pub const MAX_POINTS: usize = 65 * 65;

/// At most this many indices come out of one patch: 64 × 64 quads of two triangles.
pub const MAX_INDICES: usize = 64 * 64 * 2 * 3;

/// A patch's TessFactors as the hull shader writes them (`SV_TessFactor`, `SV_InsideTessFactor`; 10.10). Entries a
/// domain does not use are ignored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TessFactors {
    /// `SV_TessFactor`: a triangle's U == 0, V == 0, W == 0 edges; a quad's U == 0, V == 0, U == 1, V == 1 edges; an
    /// isoline's line density then line detail.
    pub edges: [f32; 4],
    /// `SV_InsideTessFactor`: a triangle's one, a quad's U and V; none for an isoline.
    pub inside: [f32; 2],
}

impl TessFactors {
    /// A triangle patch's factors.
    pub fn triangle(edges: [f32; 3], inside: f32) -> Self {
        let [u0, v0, w0] = edges;
        TessFactors {
            edges: [u0, v0, w0, 0.0],
            inside: [inside, 0.0],
        }
    }

    /// A quad patch's factors.
    pub fn quad(edges: [f32; 4], inside: [f32; 2]) -> Self {
        TessFactors { edges, inside }
    }

    /// An isoline patch's factors: how many lines, and how finely each is divided.
    pub fn isoline(density: f32, detail: f32) -> Self {
        TessFactors {
            edges: [density, detail, 0.0, 0.0],
            inside: [0.0, 0.0],
        }
    }

    /// The factors with every one above `max` lowered to it (10.13's clamp, which HLSL normally applies).
    fn limited_to(self, max: f32) -> Self {
        let limit = |factor: f32| if factor > max { max } else { factor };
        TessFactors {
            edges: self.edges.map(limit),
            inside: self.inside.map(limit),
        }
    }
}

/// The tessellator as a hull shader's declarations set it up (11.7.15).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tessellator {
    /// The domain.
    domain: Domain,
    /// The partitioning.
    partitioning: Partitioning,
    /// The output primitive.
    output: OutputPrimitive,
    /// `dcl_hs_max_tessfactor` (64 when undeclared).
    max_tess_factor: f32,
}

impl Tessellator {
    /// The tessellator for `domain`, `partitioning` and `output`; an output the domain cannot have (lines need the
    /// isoline domain, triangles the triangle or quad domain: 11.7.15) is an error.
    pub fn new(domain: Domain, partitioning: Partitioning, output: OutputPrimitive) -> Result<Self> {
        let allowed = match output {
            OutputPrimitive::Point => true,
            OutputPrimitive::Line => domain == Domain::Isoline,
            OutputPrimitive::TriangleCw | OutputPrimitive::TriangleCcw => domain != Domain::Isoline,
        };
        if !allowed {
            return Err(Error::new(
                "tessellator",
                format!("the output primitive {output:?} is not allowed with the {domain:?} domain (11.7.15)"),
            ));
        }
        Ok(Tessellator {
            domain,
            partitioning,
            output,
            max_tess_factor: 64.0,
        })
    }

    /// The same tessellator with `dcl_hs_max_tessfactor max` (22.3.20), which must be in `[1, 64]`.
    pub fn with_max_tess_factor(self, max: f32) -> Result<Self> {
        if !(1.0..=64.0).contains(&max) {
            return Err(Error::new(
                "tessellator",
                format!("the maximum TessFactor {max} is outside [1, 64] (10.13)"),
            ));
        }
        Ok(Tessellator {
            max_tess_factor: max,
            ..self
        })
    }

    /// The domain.
    pub fn domain(&self) -> Domain {
        self.domain
    }

    /// The partitioning.
    pub fn partitioning(&self) -> Partitioning {
        self.partitioning
    }

    /// The output primitive.
    pub fn output(&self) -> OutputPrimitive {
        self.output
    }

    /// Tessellates one patch with `factors`.
    pub fn tessellate(&self, factors: &TessFactors) -> Tessellation {
        let TessFactors { edges, inside } = factors.limited_to(self.max_tess_factor);
        let [e0, e1, e2, _] = edges;
        let [inside_u, _] = inside;
        let connect = self.output != OutputPrimitive::Point;
        let mut mesh = Mesh::new(self.output != OutputPrimitive::TriangleCcw);
        match self.domain {
            Domain::Quad => {
                if let Some(patch) = factors::patch(self.partitioning, edges, inside, true) {
                    quad::tessellate(&patch, &mut mesh, connect);
                }
            }
            Domain::Triangle => {
                if let Some(patch) = factors::patch(self.partitioning, [e0, e1, e2], [inside_u], false) {
                    triangle::tessellate(&patch, &mut mesh, connect);
                }
            }
            Domain::Isoline => {
                if let Some(patch) = factors::isoline(self.partitioning, e0, e1) {
                    isoline::tessellate(&patch, &mut mesh, connect);
                }
            }
        }
        if !connect {
            mesh.every_point();
        }
        Tessellation {
            domain: self.domain,
            output: self.output,
            points: mesh.points,
            indices: mesh.indices,
        }
    }
}

/// One patch tessellated: its domain points and the primitives over them.
#[derive(Clone, Debug, PartialEq)]
pub struct Tessellation {
    /// The patch's domain.
    pub domain: Domain,
    /// What `indices` lists.
    pub output: OutputPrimitive,
    /// Domain points `(u, v)`, each a multiple of 2^-16 in `[0, 1]`; a triangle's `w` is `1 - u - v`
    /// ([`Tessellation::domain_location`]). Empty for a culled patch.
    pub points: Vec<[f32; 2]>,
    /// Indices into `points`, [`OutputPrimitive::vertices`] per primitive.
    pub indices: Vec<u32>,
}

impl Tessellation {
    /// Whether the patch was culled (no points).
    pub fn is_culled(&self) -> bool {
        self.points.is_empty()
    }

    /// The primitives, each its indices.
    pub fn primitives(&self) -> std::slice::ChunksExact<'_, u32> {
        self.indices.chunks_exact(self.output.vertices())
    }

    /// `SV_DomainLocation` of point `point` (23.10): `(u, v, 1 - u - v)` for a triangle (exact, the coordinates being
    /// multiples of 2^-16 in `[0, 1]`), `(u, v, 0)` otherwise.
    pub fn domain_location(&self, point: usize) -> Option<[f32; 3]> {
        let &[u, v] = self.points.get(point)?;
        let w = if self.domain == Domain::Triangle {
            1.0 - u - v
        } else {
            0.0
        };
        Some([u, v, w])
    }
}
