//! The walks over a triangle's fan triangles ([`Part`]s): every quad with a covered lane ([`Quads`]), and the quads
//! covering one pixel ([`PixelHits`]), both through [`Part`]'s own evaluation of a quad.

use super::quad::{Lane, Quad};
use super::setup::Part;

/// The quads with a covered lane of a triangle's fan triangles, one after the other, each row by row.
#[derive(Clone, Debug)]
pub struct Quads<'a> {
    parts: &'a [Part],
    part: usize,
    /// The next quad's top-left pixel in the current part, once started.
    next: Option<(i64, i64)>,
}

impl<'a> Quads<'a> {
    pub(super) fn new(parts: &'a [Part]) -> Self {
        Self {
            parts,
            part: 0,
            next: None,
        }
    }
}

impl Iterator for Quads<'_> {
    type Item = Quad;

    fn next(&mut self) -> Option<Quad> {
        loop {
            let part = self.parts.get(self.part)?;
            let bounds = part.bounds();
            // quads aligned to even pixels: the first column and row rounded down to even
            let (first_x, first_y) = (bounds.left & !1, bounds.top & !1);
            let (x, y) = self.next.unwrap_or((first_x, first_y));
            if bounds.is_empty() || y >= bounds.bottom {
                self.part = self.part.saturating_add(1);
                self.next = None;
                continue;
            }
            let after = x.saturating_add(2);
            self.next = Some(if after < bounds.right {
                (after, y)
            } else {
                (first_x, y.saturating_add(2))
            });
            let quad = part.quad(x, y, self.part);
            if quad.covered != 0 {
                return Some(quad);
            }
        }
    }
}

/// A fan triangle covering a pixel: the quad it shades the pixel in, and the pixel's lane in it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelHit {
    /// The quad, as the full walk yields it.
    pub quad: Quad,
    /// The pixel's lane (0..4).
    pub lane: usize,
}

impl PixelHit {
    /// The pixel's lane values.
    pub fn values(&self) -> &Lane {
        let [first, ..] = &self.quad.lanes;
        self.quad.lanes.get(self.lane).unwrap_or(first)
    }
}

/// The fan triangles of a triangle covering one pixel, in drawing order.
#[derive(Clone, Debug)]
pub struct PixelHits<'a> {
    parts: &'a [Part],
    part: usize,
    x: i64,
    y: i64,
}

impl<'a> PixelHits<'a> {
    pub(super) fn new(parts: &'a [Part], x: u32, y: u32) -> Self {
        Self {
            parts,
            part: 0,
            x: i64::from(x),
            y: i64::from(y),
        }
    }
}

impl Iterator for PixelHits<'_> {
    type Item = PixelHit;

    fn next(&mut self) -> Option<PixelHit> {
        loop {
            let index = self.part;
            let part = self.parts.get(index)?;
            self.part = self.part.saturating_add(1);
            if !part.bounds().contains(self.x, self.y) {
                continue;
            }
            let quad = part.quad(self.x & !1, self.y & !1, index);
            let lane = usize::from(self.x & 1 == 1) | usize::from(self.y & 1 == 1) << 1;
            if quad.is_covered(lane) {
                return Some(PixelHit { quad, lane });
            }
        }
    }
}
