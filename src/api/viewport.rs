//! The viewport and the scissor rectangle as `RSSetViewports` and `RSSetScissorRects` give them (15.6, 15.7), with
//! what a viewport means: the transform from clip space to the render target (15.5, 15.6), the depth clamp to its
//! range (15.6, 17.10) and the extents 15.6.1 allows. The rasterizer's use of them (the implicit scissor, coverage)
//! is [`crate::raster`]'s.

use crate::{Error, Result};

/// The viewport: where clip space lands in the render target (15.6, 15.9).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Viewport {
    /// Left edge, in pixels.
    pub x: f32,
    /// Top edge, in pixels (y runs down).
    pub y: f32,
    /// Width, in pixels.
    pub width: f32,
    /// Height, in pixels.
    pub height: f32,
    /// The depth clip-space `z/w = 0` maps to.
    pub min_depth: f32,
    /// The depth clip-space `z/w = 1` maps to.
    pub max_depth: f32,
}

impl Viewport {
    /// A clip-space position's place in the render target: x and y in pixels, z the depth, through the perspective
    /// divide (15.5) and the viewport scale of 15.6, in float32 in the order 15.6 writes it.
    pub fn to_screen(&self, clip: [f32; 4]) -> [f32; 3] {
        let [x, y, z, w] = clip;
        let (nx, ny, nz) = (x / w, y / w, z / w);
        [
            (nx + 1.) * self.width * 0.5 + self.x,
            (1. - ny) * self.height * 0.5 + self.y,
            self.min_depth + nz * (self.max_depth - self.min_depth),
        ]
    }

    /// The depth the output merger tests for an interpolated (or written) depth: `min(MaxDepth, max(MinDepth, z))`,
    /// with 3.1's min and max, which return the other operand for a NaN (15.6, 17.10).
    pub fn clamp_depth(&self, z: f32) -> f32 {
        self.max_depth.min(self.min_depth.max(z))
    }

    /// Whether the viewport is one 15.6.1 allows: finite, its extents within `[-32768, 32767]`, its width and height
    /// not negative, its depths within `[0, 1]` and `MinDepth <= MaxDepth`.
    pub fn check(&self) -> Result<()> {
        let fail = |detail: String| Err(Error::new("viewport", detail));
        let all = [self.x, self.y, self.width, self.height, self.min_depth, self.max_depth];
        if all.iter().any(|v| !v.is_finite()) {
            return fail(format!("{self:?} has a value that is not finite"));
        }
        if self.width < 0. || self.height < 0. {
            return fail(format!("the size {} x {} is negative", self.width, self.height));
        }
        let range = -32768f32..=32767.;
        for (name, value) in [
            ("left", self.x),
            ("top", self.y),
            ("right", self.x + self.width),
            ("bottom", self.y + self.height),
        ] {
            if !range.contains(&value) {
                return fail(format!("its {name} edge {value} is outside [-32768, 32767] (15.6.1)"));
            }
        }
        let depths = 0f32..=1.;
        if !depths.contains(&self.min_depth) || !depths.contains(&self.max_depth) || self.min_depth > self.max_depth {
            return fail(format!(
                "the depth range [{}, {}] is not within [0, 1] in order (15.6.1)",
                self.min_depth, self.max_depth
            ));
        }
        Ok(())
    }
}

/// The scissor rectangle (15.7): pixels with `left <= x < right` and `top <= y < bottom`, as `D3D11_RECT`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Scissor {
    /// First column inside.
    pub left: i32,
    /// First row inside.
    pub top: i32,
    /// First column past the right edge.
    pub right: i32,
    /// First row past the bottom edge.
    pub bottom: i32,
}
