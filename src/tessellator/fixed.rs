//! The tessellator's number system (11.7.14): TessFactors go to unsigned 16.16 fixed point once clamped, every domain
//! coordinate is computed in it, and each coordinate goes back to float32 last. [`Subdivision`] is one TessFactor's
//! division of a `[0, 1]` axis: how many points, and where each one lies (11.7.3 to 11.7.5).
//!
//! The arithmetic is unsigned 32-bit and wraps, as the reference tessellator's does (it never needs to for a factor in
//! `[1, 64]`; wrapping only keeps the result defined and the code panic-free).

/// An unsigned 16.16 fixed-point number: 16 bits of fraction (11.7.14).
pub(super) type Fixed = u32;

/// Fraction bits of a [`Fixed`].
const FRACTION_BITS: u32 = 16;
/// 1.0.
pub(super) const ONE: Fixed = 1 << FRACTION_BITS;
/// 0.5, the middle of an axis.
pub(super) const HALF: Fixed = ONE >> 1;
/// 1/3 truncated (0x5555), the centre of a triangle patch in each barycentric coordinate.
pub(super) const ONE_THIRD: Fixed = 0x5555;
/// 2/3 truncated (0xaaaa): how far an interior ring of a triangle patch moves in for one step along an edge.
const TWO_THIRDS: Fixed = 0xaaaa;
/// The fraction bits.
const FRACTION_MASK: Fixed = ONE - 1;
/// The integer bits of a value with the top bit clear (the reference's 15 integer bits).
const INTEGER_MASK: Fixed = 0x7fff_0000;

/// A clamped float32 TessFactor (in `[1, 64]`) in fixed point, rounded to nearest even as 3.2.4.1's float to fixed
/// conversion does (11.7.11.3's last step). Scaling by 2^16 is exact in float32, so rounding the scaled value is the
/// conversion; the result is below 2^23.
pub(super) fn from_f32(factor: f32) -> Fixed {
    (factor * ONE as f32).round_ties_even() as Fixed
}

/// A domain coordinate back to float32 (exact: the integer part and a fraction of 16 bits).
pub(super) fn to_f32(value: Fixed) -> f32 {
    (value >> FRACTION_BITS) as f32 + (value & FRACTION_MASK) as f32 / ONE as f32
}

/// The smallest integer not below `value`.
fn ceil(value: Fixed) -> Fixed {
    if value & FRACTION_MASK == 0 {
        value
    } else {
        (value & INTEGER_MASK).wrapping_add(ONE)
    }
}

/// The largest integer not above `value`.
fn floor(value: Fixed) -> Fixed {
    value & INTEGER_MASK
}

/// `value` without its highest set bit (0 for 0).
fn without_highest_bit(value: u32) -> u32 {
    match value.checked_ilog2() {
        Some(bit) => value & !(1 << bit),
        None => 0,
    }
}

/// `1 / segments` in fixed point, rounded to nearest, for segment counts 1 to 64 (the reference's reciprocal table;
/// no count is ever 0, which gives the table's unused all-ones entry).
fn reciprocal(segments: u32) -> Fixed {
    ONE.wrapping_add(segments >> 1)
        .checked_div(segments)
        .unwrap_or(Fixed::MAX)
}

/// Whether a TessFactor divides its axis into an even or an odd number of segments (11.7.3). Fractional partitionings
/// have one parity; integer partitioning takes each rounded factor's own (11.7.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Parity {
    /// Segments come in pairs about a point at the middle (fractional even; an even integer factor).
    Even,
    /// Segments come in pairs about a segment at the middle (fractional odd; an odd integer factor).
    Odd,
}

/// One TessFactor's division of a `[0, 1]` axis (11.7.3 to 11.7.5): the points are symmetric about 0.5, so only the
/// half below it is computed and the other half mirrored (which also makes `1 - u` exact: 11.7.13's clean
/// parameterization). Over a half axis the factor lies between two "uniform" factors, the floor and ceiling of half
/// of it (for odd parity, of half of it plus one half); a point is placed at its position in both uniform spacings
/// and the two are blended by the fraction. The point the ceiling spacing has and the floor spacing lacks, the one
/// being split in two as the factor grows, is chosen by the ruler function (11.7.5).
#[derive(Clone, Copy, Debug)]
pub(super) struct Subdivision {
    /// The factor's parity.
    pub(super) parity: Parity,
    /// Points on the half axis below the middle, the corner included: the ceiling of the half factor.
    pub(super) half_points: i32,
    /// Points over the whole axis, both ends included.
    pub(super) points: i32,
    /// The point being split: points above it sit one position further along the ceiling spacing than the floor one.
    split_point: i32,
    /// How far the half factor is from its floor towards its ceiling.
    fraction: Fixed,
    /// `1 / segments` of the floor factor.
    floor_step: Fixed,
    /// `1 / segments` of the ceiling factor.
    ceil_step: Fixed,
}

impl Subdivision {
    /// The division by `factor` (fixed point, at least 1) with `parity`. An even factor of 1 (integer partitioning's
    /// inside factor 1) is treated as 2, as the reference does: its half factor is raised by one half like an odd one.
    pub(super) fn new(factor: Fixed, parity: Parity) -> Self {
        let odd = parity == Parity::Odd;
        let mut half = factor.wrapping_add(1) >> 1;
        if odd || half == HALF {
            half = half.wrapping_add(HALF);
        }
        let floor_half = floor(half);
        let ceil_half = ceil(half);
        let half_points = (ceil_half >> FRACTION_BITS) as i32;
        let whole_floor = (floor_half >> FRACTION_BITS) as i32;
        let split_point = if floor_half == ceil_half {
            // nothing is being split: a position past every point
            half_points.wrapping_add(1)
        } else if odd && floor_half == ONE {
            0
        } else {
            let epoch_index = if odd { whole_floor.wrapping_sub(1) } else { whole_floor };
            (without_highest_bit(epoch_index as u32) as i32)
                .wrapping_shl(1)
                .wrapping_add(1)
        };
        let odd_offset = u32::from(odd);
        let floor_segments = (floor_half.wrapping_mul(2) >> FRACTION_BITS).wrapping_sub(odd_offset);
        let ceil_segments = (ceil_half.wrapping_mul(2) >> FRACTION_BITS).wrapping_sub(odd_offset);
        Subdivision {
            parity,
            half_points,
            points: point_count(factor, parity),
            split_point,
            fraction: half.wrapping_sub(floor_half),
            floor_step: reciprocal(floor_segments),
            ceil_step: reciprocal(ceil_segments),
        }
    }

    /// Where point `point` (0 at the axis's start, `points - 1` at its end) lies along the axis, in fixed point.
    pub(super) fn place(&self, point: i32) -> Fixed {
        let odd = i32::from(self.parity == Parity::Odd);
        let (point, mirrored) = if point >= self.half_points {
            (
                self.half_points.wrapping_mul(2).wrapping_sub(point).wrapping_sub(odd),
                true,
            )
        } else {
            (point, false)
        };
        if point == self.half_points {
            // the middle point of an even division: exactly one half, which the blend below cannot make
            return HALF;
        }
        let on_ceil = point as u32;
        let on_floor = if point > self.split_point {
            on_ceil.wrapping_sub(1)
        } else {
            on_ceil
        };
        // both positions are at most one half, so the blend fits in 32 bits before it is rounded back to 16.16
        let at_floor = on_floor.wrapping_mul(self.floor_step);
        let at_ceil = on_ceil.wrapping_mul(self.ceil_step);
        let blend = at_floor
            .wrapping_mul(ONE.wrapping_sub(self.fraction))
            .wrapping_add(at_ceil.wrapping_mul(self.fraction));
        let location = blend.wrapping_add(HALF) >> FRACTION_BITS;
        if mirrored { ONE.wrapping_sub(location) } else { location }
    }
}

/// How many points `factor` (fixed point) puts on an axis, both ends included: the segment count rounded up to the
/// parity, plus one (11.7.3).
fn point_count(factor: Fixed, parity: Parity) -> i32 {
    let half = factor.wrapping_add(1) >> 1;
    match parity {
        Parity::Odd => (ceil(HALF.wrapping_add(half)).wrapping_mul(2) >> FRACTION_BITS) as i32,
        Parity::Even => ((ceil(half).wrapping_mul(2) >> FRACTION_BITS) as i32).wrapping_add(1),
    }
}

/// The 2/3 scaling a triangle patch's interior ring applies to its inward distance (rounded to nearest), so that the
/// ring's distance from each edge is measured in barycentric units.
pub(super) fn two_thirds_of(value: Fixed) -> Fixed {
    value.wrapping_mul(TWO_THIRDS).wrapping_add(HALF) >> FRACTION_BITS
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)] // tests compute expected values from small constants
mod tests {
    use super::*;

    #[test]
    fn reciprocals_match_the_reference_table() {
        // entries of the reference tessellator's s_fixedReciprocal, 1/n rounded to 16 fraction bits
        let published = [
            (1, 0x10000),
            (2, 0x8000),
            (3, 0x5555),
            (6, 0x2aab),
            (7, 0x2492),
            (9, 0x1c72),
            (13, 0x13b1),
            (17, 0xf0f),
            (31, 0x842),
            (33, 0x7c2),
            (63, 0x410),
            (64, 0x400),
        ];
        for (n, expected) in published {
            assert_eq!(reciprocal(n), expected, "1/{n}");
        }
        assert_eq!(reciprocal(0), u32::MAX);
    }

    #[test]
    fn float_to_fixed_rounds_to_nearest_even() {
        assert_eq!(from_f32(1.0), ONE);
        assert_eq!(from_f32(64.0), 64 << 16);
        // 1 + 2^-17 is half way between two fixed-point values: to the even one
        assert_eq!(from_f32(1.0 + 1.0 / 131_072.0), ONE);
        // 1 + 3 * 2^-17 is half way between 1 + 2^-16 and 1 + 2^-15: to the even one
        assert_eq!(from_f32(1.0 + 3.0 / 131_072.0), ONE + 2);
        assert_eq!(to_f32(0xaaab), 0xaaab as f32 / 65536.0);
    }

    #[test]
    fn the_highest_bit_is_removed() {
        assert_eq!(without_highest_bit(0), 0);
        assert_eq!(without_highest_bit(1), 0);
        assert_eq!(without_highest_bit(6), 2);
        assert_eq!(without_highest_bit(31), 15);
    }

    #[test]
    fn point_counts_are_segments_rounded_up_to_the_parity_plus_one() {
        for (factor, parity, points) in [
            (1.0, Parity::Odd, 2),
            (1.5, Parity::Odd, 4),
            (3.0, Parity::Odd, 4),
            (3.01, Parity::Odd, 6),
            (2.0, Parity::Even, 3),
            (2.5, Parity::Even, 5),
            (4.0, Parity::Even, 5),
            (64.0, Parity::Even, 65),
            (63.0, Parity::Odd, 64),
        ] {
            assert_eq!(point_count(from_f32(factor), parity), points, "{factor} {parity:?}");
        }
    }
}
