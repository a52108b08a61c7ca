//! The hardware's TessFactor processing (11.7.11, 11.7.12): culling, clamping to the partitioning's range, rounding up
//! for integer partitioning, parity, and the conversion to fixed point.

use super::declarations::Partitioning;
use super::fixed::{self, Fixed, Parity, Subdivision};

/// 2^-16, the smallest positive fixed-point fraction (11.7.11.3's EPSILON).
const EPSILON: f32 = 1.0 / 65536.0;

/// A processed TessFactor: fixed point and parity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Factor {
    /// The clamped (and, for integer partitioning, rounded) factor in 16.16.
    pub(super) fixed: Fixed,
    /// The parity its axis is divided with.
    pub(super) parity: Parity,
}

impl Factor {
    /// The division of an axis by this factor.
    pub(super) fn subdivision(self) -> Subdivision {
        Subdivision::new(self.fixed, self.parity)
    }
}

/// A patch's processed edge and inside factors (a triangle: 3 and 1; a quad: 4 and 2).
#[derive(Clone, Copy, Debug)]
pub(super) struct PatchFactors<const EDGES: usize, const INSIDE: usize> {
    /// The edge factors in the order the hull shader writes them (10.10.2, 10.10.3).
    pub(super) edges: [Factor; EDGES],
    /// The inside factors.
    pub(super) inside: [Factor; INSIDE],
    /// Whether the partitioning allows the smallest tessellation (integer, pow2, fractional odd).
    odd_or_integer: bool,
}

impl<const EDGES: usize, const INSIDE: usize> PatchFactors<EDGES, INSIDE> {
    /// Whether every factor is 1 for a partitioning that can have 1 segment: the patch is its corners alone.
    pub(super) fn is_minimal(&self) -> bool {
        self.odd_or_integer
            && self
                .edges
                .iter()
                .chain(&self.inside)
                .all(|factor| factor.fixed == fixed::ONE)
    }
}

/// The edge factor range of `partitioning` (11.7.11.2): pow2 is integer to the hardware.
fn edge_range(partitioning: Partitioning) -> (f32, f32) {
    match partitioning {
        Partitioning::Integer | Partitioning::Pow2 => (1.0, 64.0),
        Partitioning::FractionalEven => (2.0, 64.0),
        Partitioning::FractionalOdd => (1.0, 63.0),
    }
}

/// `value` clamped to `[lower, upper]` by D3D's min and max (3.1: a NaN operand gives the other), so NaN becomes
/// `lower`; both bounds are normal positive numbers, so denormal flushing changes nothing.
fn clamp(value: f32, lower: f32, upper: f32) -> f32 {
    if value.is_nan() || value <= lower {
        lower
    } else if value > upper {
        upper
    } else {
        value
    }
}

/// Whether an edge factor culls its patch: at or below 0, or NaN (11.7.12).
fn culls(factor: f32) -> bool {
    factor.is_nan() || factor <= 0.0
}

/// Whether a partitioning is integer to the hardware (integer and pow2, 11.7.7.1).
fn is_integer(partitioning: Partitioning) -> bool {
    matches!(partitioning, Partitioning::Integer | Partitioning::Pow2)
}

/// An integer factor's parity.
fn parity_of_integer(factor: f32) -> Parity {
    if (factor as i32) % 2 == 0 {
        Parity::Even
    } else {
        Parity::Odd
    }
}

/// The parity every factor of a fractional partitioning has.
fn fractional_parity(partitioning: Partitioning) -> Parity {
    if partitioning == Partitioning::FractionalOdd {
        Parity::Odd
    } else {
        Parity::Even
    }
}

/// Processes a triangle's or a quad's factors as the hull shader wrote them, or `None` when the patch is culled (an
/// edge factor not above 0, or NaN: 11.7.12). `frame_checks_inside` says whether fractional odd's picture frame rule
/// looks at the inside factors too (a quad's) or at the edges alone (a triangle's), as the reference does.
pub(super) fn patch<const EDGES: usize, const INSIDE: usize>(
    partitioning: Partitioning,
    edges: [f32; EDGES],
    inside: [f32; INSIDE],
    frame_checks_inside: bool,
) -> Option<PatchFactors<EDGES, INSIDE>> {
    if edges.into_iter().any(culls) {
        return None;
    }
    let integer = is_integer(partitioning);
    let (lower, upper) = edge_range(partitioning);
    let edges = edges.map(|factor| {
        let clamped = clamp(factor, lower, upper);
        if integer { clamped.ceil() } else { clamped }
    });
    // 11.7.11.3: with fractional odd partitioning, once any factor is above 1 after conversion to fixed point the
    // inside factors are kept above 1 too, so the patch has a picture frame
    let mut inside_lower = lower;
    if partitioning == Partitioning::FractionalOdd {
        let above_one = |factor: &f32| *factor > 1.0 + EPSILON / 2.0;
        if edges.iter().any(above_one) || (frame_checks_inside && inside.iter().any(above_one)) {
            inside_lower = 1.0 + EPSILON;
        }
    }
    let inside = inside.map(|factor| {
        let clamped = clamp(factor, inside_lower, upper);
        if integer { clamped.ceil() } else { clamped }
    });
    let edges = edges.map(|factor| Factor {
        fixed: fixed::from_f32(factor),
        parity: if integer {
            parity_of_integer(factor)
        } else {
            fractional_parity(partitioning)
        },
    });
    let inside = inside.map(|factor| Factor {
        fixed: fixed::from_f32(factor),
        // an inside factor of 1 divides like 2 (11.7.7: the inside needs a middle point to meet the frame)
        parity: if !integer {
            fractional_parity(partitioning)
        } else if factor == 1.0 {
            Parity::Even
        } else {
            parity_of_integer(factor)
        },
    });
    Some(PatchFactors {
        edges,
        inside,
        odd_or_integer: integer || partitioning == Partitioning::FractionalOdd,
    })
}

/// An isoline patch's processed factors (11.7.8).
#[derive(Clone, Copy, Debug)]
pub(super) struct IsolineFactors {
    /// How many lines: always integer partitioning, in `[1, 64]`.
    pub(super) density: Factor,
    /// How finely each line is divided, by the patch's partitioning.
    pub(super) detail: Factor,
}

/// Processes an isoline's line density and detail factors, or `None` when the patch is culled (either not above 0, or
/// NaN: 11.7.12).
pub(super) fn isoline(partitioning: Partitioning, density: f32, detail: f32) -> Option<IsolineFactors> {
    if culls(density) || culls(detail) {
        return None;
    }
    let (lower, upper) = edge_range(partitioning);
    let density = clamp(density, 1.0, 64.0).ceil();
    let mut detail = clamp(detail, lower, upper);
    let detail_parity = if is_integer(partitioning) {
        detail = detail.ceil();
        parity_of_integer(detail)
    } else {
        fractional_parity(partitioning)
    };
    Some(IsolineFactors {
        density: Factor {
            fixed: fixed::from_f32(density),
            parity: parity_of_integer(density),
        },
        detail: Factor {
            fixed: fixed::from_f32(detail),
            parity: detail_parity,
        },
    })
}
