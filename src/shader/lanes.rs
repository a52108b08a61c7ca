//! Lanes: the unit a batch runs in lockstep. A batch holds [`LANES`] of them, a [`LaneMask`] names a set of them and
//! [`Lanes`] holds one register component for each. The machine that runs them and the trace that records them both
//! speak these types, so they live on their own.

/// How many lanes a batch holds: eight 2x2 quads, or 32 vertices.
pub const LANES: usize = 32;

/// A set of lanes, bit `i` for lane `i`.
pub type LaneMask = u32;

/// One register component for every lane of a batch.
pub type Lanes = [u32; LANES];

/// Whether lane `lane` is in `mask`.
#[inline]
pub(super) fn has(mask: LaneMask, lane: usize) -> bool {
    u32::try_from(lane)
        .ok()
        .and_then(|l| mask.checked_shr(l))
        .is_some_and(|m| m & 1 == 1)
}

/// The mask of lane `lane` alone.
#[inline]
pub(super) fn bit(lane: usize) -> LaneMask {
    u32::try_from(lane).ok().and_then(|l| 1u32.checked_shl(l)).unwrap_or(0)
}
