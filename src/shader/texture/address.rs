//! From a normalized coordinate to texels along one axis: range reduction (7.18.6), scaling and conversion to fixed
//! point with 8 fractional bits (7.18.7 point, 7.18.8 linear, 3.2.4.1), the immediate offset, and the address mode
//! (7.18.9).

use crate::api::enums::AddressMode;

/// Fractional bits of the fixed-point texel coordinate (7.18.16.1: at least 8).
pub(super) const SUBTEXEL_BITS: u32 = 8;

/// 2^SUBTEXEL_BITS as a float.
const SUBTEXEL_SCALE: f32 = 256.0;

/// Largest magnitude a fixed-point texel coordinate saturates at: 2^40 texels, far beyond the 2^16 texels 7.18.16.1
/// requires and the ±10 × 2^32 a reduced coordinate can reach, so the saturation never moves a real tap.
const FIXED_LIMIT: f32 = 281_474_976_710_656.0; // 2^48 = 2^40 texels in 8 fractional bits

/// 7.18.6: the normalized coordinate with the tiling removed, by address mode: `frac(u)` for WRAP, `signedFrac(u/2)*2`
/// for MIRROR, a clamp to [-10, 10] for CLAMP, BORDER and MIRROR_ONCE. In float32, as the pseudocode writes it. A NaN
/// stays NaN (it becomes texel 0 in fixed point).
pub(super) fn reduce_range(u: f32, mode: AddressMode) -> f32 {
    match mode {
        AddressMode::Wrap => u - u.floor(),
        AddressMode::Mirror => {
            let half = u / 2.0;
            (half - half.trunc()) * 2.0
        }
        AddressMode::Clamp | AddressMode::Border | AddressMode::MirrorOnce => u.clamp(-10.0, 10.0),
    }
}

/// 3.2.4.1: a float to fixed point with [`SUBTEXEL_BITS`] fractional bits, round to nearest even (the reference
/// conversion, which 3.2.4.1 says future versions require); NaN is 0, infinities and huge values saturate.
pub(super) fn to_fixed(value: f32) -> i64 {
    if value.is_nan() {
        return 0;
    }
    let scaled = (value * SUBTEXEL_SCALE).clamp(-FIXED_LIMIT, FIXED_LIMIT);
    scaled.round_ties_even() as i64
}

/// One texel an axis reads and its weight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct AxisTap {
    /// The texel index after the address mode, or `None` for the border colour.
    pub(super) texel: Option<u32>,
    /// Its filter weight (1 for point sampling).
    pub(super) weight: f32,
}

/// The texels one axis reads: one for point sampling, two for linear.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct AxisTaps {
    /// The taps, `count` of them used: floor then ceiling.
    pub(super) taps: [AxisTap; 2],
    /// 1 or 2.
    pub(super) count: usize,
}

impl AxisTaps {
    /// The single tap at texel 0 of weight 1, for the axes a dimension does not have.
    pub(super) const UNUSED: AxisTaps = AxisTaps {
        taps: [
            AxisTap {
                texel: Some(0),
                weight: 1.0,
            },
            AxisTap {
                texel: Some(0),
                weight: 0.0,
            },
        ],
        count: 1,
    };

    /// The used taps.
    pub(super) fn used(&self) -> &[AxisTap] {
        self.taps.get(..self.count).unwrap_or(&[])
    }
}

/// The unaddressed fixed-point position along one axis of a level `size` texels wide: for point sampling the texel
/// is `floor(u * size)` (7.18.7), for linear sampling the left texel is `floor(u * size - 0.5)` and the fraction,
/// in 256ths, is the right texel's weight (7.18.8). Float32 arithmetic, then 3.2.4.1's conversion.
pub(super) fn fixed_position(u: f32, size: u32, linear: bool) -> i64 {
    let mut scaled = u * size as f32;
    if linear {
        scaled -= 0.5;
    }
    to_fixed(scaled)
}

/// The left (or only) texel and the right texel's weight, from a fixed-point position.
pub(super) fn split_fixed(fixed: i64) -> (i64, f32) {
    let texel = fixed >> SUBTEXEL_BITS;
    let fraction = fixed & ((1 << SUBTEXEL_BITS) - 1);
    (texel, fraction as f32 / SUBTEXEL_SCALE)
}

/// The taps of one axis: range reduction by `mode`, fixed-point position at a level `size` texels wide, the texel
/// `offset` (texel space, 22.4.15 "Address Offset"), then the address mode on each texel (7.18.9). The weights are
/// `1 - f` and `f` for the left and right texels of a linear axis, `f` the 8-bit fraction as a float (exact).
pub(super) fn axis_taps(u: f32, mode: AddressMode, size: u32, offset: i32, linear: bool) -> AxisTaps {
    let fixed = fixed_position(reduce_range(u, mode), size, linear);
    let (left, fraction) = split_fixed(fixed);
    let left = left.saturating_add(i64::from(offset));
    let first = AxisTap {
        texel: address(left, size, mode),
        weight: if linear { 1.0 - fraction } else { 1.0 },
    };
    if !linear {
        return AxisTaps {
            taps: [first, first],
            count: 1,
        };
    }
    AxisTaps {
        taps: [
            first,
            AxisTap {
                texel: address(left.saturating_add(1), size, mode),
                weight: fraction,
            },
        ],
        count: 2,
    }
}

/// 7.18.9: a texel index outside `[0, size)` brought back by the address mode, or `None` for the border colour.
/// WRAP repeats; MIRROR reflects every other tile (`-t - 1` below 0); CLAMP clamps; MIRROR_ONCE reflects below 0 and
/// clamps; BORDER reads the border colour.
pub(super) fn address(texel: i64, size: u32, mode: AddressMode) -> Option<u32> {
    let size = i64::from(size.max(1));
    if (0..size).contains(&texel) {
        return u32::try_from(texel).ok();
    }
    let addressed = match mode {
        AddressMode::Wrap => texel.checked_rem_euclid(size).unwrap_or(0),
        AddressMode::Mirror => {
            let reflected = if texel < 0 {
                texel.saturating_neg().saturating_sub(1)
            } else {
                texel
            };
            let flip = reflected.checked_div(size).unwrap_or(0) & 1 == 1;
            let within = reflected.checked_rem(size).unwrap_or(0);
            if flip {
                size.wrapping_sub(within).wrapping_sub(1)
            } else {
                within
            }
        }
        AddressMode::Clamp => texel.clamp(0, size.wrapping_sub(1)),
        AddressMode::MirrorOnce => {
            let reflected = if texel < 0 {
                texel.saturating_neg().saturating_sub(1)
            } else {
                texel
            };
            reflected.clamp(0, size.wrapping_sub(1))
        }
        AddressMode::Border => return None,
    };
    u32::try_from(addressed).ok()
}

/// The array slice a float coordinate selects: round to nearest even, then clamp to `[0, count)` (22.4.15 "Array
/// Resources", 5.3.5.1); NaN selects slice 0.
pub(super) fn array_slice(coordinate: f32, count: u32) -> u32 {
    if coordinate.is_nan() || count == 0 {
        return 0;
    }
    let rounded = coordinate.round_ties_even();
    let last = count.saturating_sub(1);
    if rounded <= 0.0 {
        0
    } else if rounded >= last as f32 {
        last
    } else {
        rounded as u32
    }
}
