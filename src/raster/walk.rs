//! The walks over a primitive's pieces (triangles, [`Part`]s, then lines, [`LinePiece`]s): every quad with a covered
//! lane ([`Quads`]), and the quads covering one pixel ([`PixelHits`]), both through the pieces' own evaluation of a
//! quad.

use super::quad::{Lane, Quad};
use super::setup::Part;
use super::shapes::LinePiece;

/// The quads with a covered lane of a primitive's pieces, one after the other: each triangle's row by row, each
/// line's in the order it travels.
#[derive(Clone, Debug)]
pub struct Quads<'a> {
    parts: &'a [Part],
    lines: &'a [LinePiece],
    /// The current piece (parts first, then lines).
    piece: usize,
    /// The next quad's top-left pixel in the current part, once started.
    next: Option<(i64, i64)>,
    /// The current line's quads (top-left pixels) and how many have been yielded, once started.
    line_quads: Option<(Vec<(i64, i64)>, usize)>,
    /// How many of the current line's quads were yielded before the walk was resumed ([`Quads::resume`]).
    line_start: usize,
    /// The rows whose quads are walked, all when `None`.
    rows: Option<Stripes>,
}

/// Where a walk over a primitive's quads is: what [`Quads::position`] gives and [`Quads::resume`] goes on from, so
/// that a draw run part by part resumes a primitive in constant time rather than walking its quads again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuadPosition {
    /// The current piece.
    piece: usize,
    /// The next quad's top-left pixel in the current part, once started.
    next: Option<(i64, i64)>,
    /// How many of the current line's quads have been yielded.
    line_done: usize,
}

/// A set of rows: stripe `band`, `band + bands`, `band + 2 * bands`, ... of the stripes of `rows` rows each (an even
/// number) the target's rows are cut into from row 0. The stripes of bands `0..bands` hold every row once, and a quad
/// (two rows from an even one) lies in one stripe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stripes {
    /// Which of the bands.
    pub band: u32,
    /// How many bands share the rows.
    pub bands: u32,
    /// Rows per stripe (even, at least 2).
    pub rows: u32,
}

impl Stripes {
    /// Whether row `y` is in the band's stripes.
    pub fn contains(&self, y: i64) -> bool {
        let stripe = y.div_euclid(i64::from(self.rows.max(1)));
        stripe.rem_euclid(i64::from(self.bands.max(1))) == i64::from(self.band)
    }

    /// The first row at or after `y` in the band's stripes.
    pub fn next_row(&self, y: i64) -> i64 {
        if self.contains(y) {
            return y;
        }
        let (rows, bands) = (i64::from(self.rows.max(1)), i64::from(self.bands.max(1)));
        let stripe = y.div_euclid(rows);
        let ahead = (i64::from(self.band).saturating_sub(stripe)).rem_euclid(bands);
        stripe.saturating_add(ahead).saturating_mul(rows)
    }

    /// The band's row of target row `y` (which must be in its stripes): its stripes stacked, top first.
    pub fn local_row(&self, y: u32) -> u32 {
        let rows = self.rows.max(1);
        let period = rows.saturating_mul(self.bands.max(1));
        (y.checked_div(period).unwrap_or(0))
            .saturating_mul(rows)
            .saturating_add(y.checked_rem(rows).unwrap_or(0))
    }

    /// The band's stripes within `height` rows, as row ranges `top..bottom`, top first.
    pub fn ranges(&self, height: u32) -> Vec<(u32, u32)> {
        let rows = self.rows.max(1);
        (0..)
            .map(|k: u32| {
                self.band
                    .saturating_add(k.saturating_mul(self.bands.max(1)))
                    .saturating_mul(rows)
            })
            .take_while(|&top| top < height)
            .map(|top| (top, top.saturating_add(rows).min(height)))
            .collect()
    }
}

impl<'a> Quads<'a> {
    pub(super) fn new(parts: &'a [Part], lines: &'a [LinePiece]) -> Self {
        Self {
            parts,
            lines,
            piece: 0,
            next: None,
            line_quads: None,
            line_start: 0,
            rows: None,
        }
    }

    /// Where the walk is: the quads it yields from here on are those a walk resumed there yields.
    pub fn position(&self) -> QuadPosition {
        QuadPosition {
            piece: self.piece,
            next: self.next,
            line_done: self.line_quads.as_ref().map_or(self.line_start, |(_, done)| *done),
        }
    }

    /// The same walk going on from `position` (taken from a walk of the same primitive).
    #[must_use]
    pub fn resume(mut self, position: QuadPosition) -> Self {
        self.piece = position.piece;
        self.next = position.next;
        self.line_quads = None;
        self.line_start = position.line_done;
        self
    }

    /// The same walk restricted to the quads whose rows lie in `stripes`, in the same order.
    #[must_use]
    pub fn within(mut self, stripes: Stripes) -> Self {
        self.rows = Some(stripes);
        self
    }

    /// Moves on to the next piece.
    fn next_piece(&mut self) {
        self.piece = self.piece.saturating_add(1);
        self.next = None;
        self.line_quads = None;
        self.line_start = 0;
    }
}

impl Iterator for Quads<'_> {
    type Item = Quad;

    fn next(&mut self) -> Option<Quad> {
        loop {
            let Some(part) = self.parts.get(self.piece) else {
                let line = self.lines.get(self.piece.checked_sub(self.parts.len())?)?;
                let start = self.line_start;
                let (origins, done) = self.line_quads.get_or_insert_with(|| (line.quad_origins(), start));
                let Some(&(x, y)) = origins.get(*done) else {
                    self.next_piece();
                    continue;
                };
                *done = done.saturating_add(1);
                if self.rows.is_some_and(|stripes| !stripes.contains(y)) {
                    continue;
                }
                let quad = line.quad(x, y, self.piece);
                if quad.covered != 0 {
                    return Some(quad);
                }
                continue;
            };
            let bounds = part.bounds();
            // quads aligned to even pixels: the first column and row rounded down to even
            let (first_x, first_y) = (bounds.left & !1, bounds.top & !1);
            let (x, y) = self.next.unwrap_or((first_x, first_y));
            if let Some(stripes) = &self.rows {
                // a row of quads outside the stripes is skipped whole
                let owned = stripes.next_row(y);
                if owned != y {
                    self.next = Some((first_x, owned));
                    continue;
                }
            }
            if bounds.is_empty() || y >= bounds.bottom {
                self.next_piece();
                continue;
            }
            let after = x.saturating_add(2);
            self.next = Some(if after < bounds.right {
                (after, y)
            } else {
                (first_x, y.saturating_add(2))
            });
            let quad = part.quad(x, y, self.piece);
            if quad.covered != 0 {
                return Some(quad);
            }
        }
    }
}

/// A piece covering a pixel: the quad it shades the pixel in, and the pixel's lane in it.
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

/// The pieces of a primitive covering one pixel, in drawing order.
#[derive(Clone, Debug)]
pub struct PixelHits<'a> {
    parts: &'a [Part],
    lines: &'a [LinePiece],
    piece: usize,
    x: i64,
    y: i64,
}

impl<'a> PixelHits<'a> {
    pub(super) fn new(parts: &'a [Part], lines: &'a [LinePiece], x: u32, y: u32) -> Self {
        Self {
            parts,
            lines,
            piece: 0,
            x: i64::from(x),
            y: i64::from(y),
        }
    }
}

impl Iterator for PixelHits<'_> {
    type Item = PixelHit;

    fn next(&mut self) -> Option<PixelHit> {
        loop {
            let index = self.piece;
            self.piece = self.piece.saturating_add(1);
            let lane = usize::from(self.x & 1 == 1) | usize::from(self.y & 1 == 1) << 1;
            let quad = match self.parts.get(index) {
                Some(part) => {
                    if !part.bounds().contains(self.x, self.y) {
                        continue;
                    }
                    part.quad(self.x & !1, self.y & !1, index)
                }
                None => {
                    let line = self.lines.get(index.checked_sub(self.parts.len())?)?;
                    if line.coverage(self.x, self.y).is_none() {
                        continue;
                    }
                    line.quad(self.x & !1, self.y & !1, index)
                }
            };
            if quad.is_covered(lane) {
                return Some(PixelHit { quad, lane });
            }
        }
    }
}
