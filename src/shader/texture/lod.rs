//! Level of detail (7.18.11) and mipmap selection (7.18.10): from derivatives to a LOD (isotropic, or anisotropic with
//! its ratio and line of anisotropy), the sampler's and instruction's bias and clamps, and the one or two mip levels
//! with their weights in 8.8 fixed point.

use crate::api::resource::SamplerDesc;

/// How LODs are computed and textures filtered when a draw is replayed under variants
/// ([`crate::draw::variants`]); every field false is the spec's rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FilterVariants {
    /// `lod-max-length`: an isotropic LOD from the longer of the derivative vectors as they are, not from the axes
    /// of 7.18.11's ellipse.
    pub lod_max_length: bool,
    /// `lod-log2-linear`: an isotropic LOD of `(E + M - 1) / 2` for the longer vector's squared length `M 2^E`
    /// (a piecewise-linear `log2`), and a linear mip filter's level and weight from that LOD in float32, not in 7.18.10's
    /// 8.8 fixed point.
    pub lod_log2_linear: bool,
    /// `filter-8bit`: an 8-bit UNORM texture (not SRGB) filtered in 8-bit integers, as llvmpipe's AoS path does: each
    /// linear axis a lerp of codes `a + floor((w (b - a) + 128) / 256)` with the 8-bit subtexel weight `w`, then
    /// the mip levels by `trunc(256 f)` of the level weight `f`; the result a code (2D, WRAP or CLAMP addressing,
    /// no comparison, min/max or anisotropy; other samples keep the float filter).
    pub filter_8bit: bool,
}

/// Where a sample's level of detail comes from (7.18.11).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LevelOfDetail {
    /// `sample`, `sample_c`: derivatives of the address across the quad (the interpreter passes the coarse
    /// derivatives, 7.18.11 / 22.5.2).
    Implicit {
        /// d(address)/dx.
        ddx: [f32; 3],
        /// d(address)/dy.
        ddy: [f32; 3],
    },
    /// `sample_b`: implicit plus a bias.
    Bias {
        /// d(address)/dx.
        ddx: [f32; 3],
        /// d(address)/dy.
        ddy: [f32; 3],
        /// The instruction's LOD bias.
        bias: f32,
    },
    /// `sample_d`: the program's derivatives.
    Gradient {
        /// d(address)/dx.
        ddx: [f32; 3],
        /// d(address)/dy.
        ddy: [f32; 3],
    },
    /// `sample_l`: the program's LOD.
    Explicit(f32),
    /// `sample_c_lz` (and any LOD-less context): LOD 0.
    Zero,
}

/// A LOD and, for anisotropic filtering, the line the taps lie on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Footprint {
    /// log2 of the footprint's size in texels of the view's most detailed level, before bias and clamps.
    pub(super) lod: f32,
    /// The anisotropic line, when filtering anisotropically.
    pub(super) anisotropy: Option<Anisotropy>,
}

/// The line of anisotropy (7.18.11's `ComputeAnisotropicLOD` outputs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Anisotropy {
    /// The ratio of anisotropy, clamped to the sampler's maximum and, below a texel, reduced (at least 1).
    pub(super) ratio: f32,
    /// The major axis of the footprint (the longer transformed derivative), in texels of the most detailed level.
    pub(super) major: [f32; 2],
}

/// A 2D vector's length.
fn length2(v: [f32; 2]) -> f32 {
    (v[0] * v[0] + v[1] * v[1]).sqrt()
}

/// 7.18.11's "ideal transformation" [Heckbert 89]: the pair of derivative vectors (texel units) replaced by the
/// principal axes of the ellipse they span, which have the same area and give the LOD of a proper orthogonal
/// Jacobian. Skipped — the vectors returned as they are — when either is zero, they are parallel or perpendicular,
/// anything is infinite or NaN, or the result would be (the spec's caveats). Float32, as written there.
pub(super) fn orthogonalize(dx: [f32; 2], dy: [f32; 2]) -> ([f32; 2], [f32; 2]) {
    let finite = dx.iter().chain(dy.iter()).all(|c| c.is_finite());
    let cross = dx[0] * dy[1] - dy[0] * dx[1];
    let dot = dx[0] * dy[0] + dx[1] * dy[1];
    if !finite || length2(dx) == 0.0 || length2(dy) == 0.0 || cross == 0.0 || dot == 0.0 {
        return (dx, dy);
    }
    let a = dx[1] * dx[1] + dy[1] * dy[1];
    let b = -2.0 * (dx[0] * dx[1] + dy[0] * dy[1]);
    let c = dx[0] * dx[0] + dy[0] * dy[0];
    let f = cross * cross;
    let p = a - c;
    let q = a + c;
    let t = (p * p + b * b).sqrt();
    let sign_b = if b > 0.0 {
        1.0
    } else if b < 0.0 {
        -1.0
    } else {
        0.0
    };
    let new_dx = [
        (f * (t + p) / (t * (q + t))).sqrt(),
        (f * (t - p) / (t * (q + t))).sqrt() * sign_b,
    ];
    let new_dy = [
        (f * (t - p) / (t * (q - t))).sqrt() * -sign_b,
        (f * (t + p) / (t * (q - t))).sqrt(),
    ];
    if new_dx.iter().chain(new_dy.iter()).all(|c| c.is_finite()) {
        (new_dx, new_dy)
    } else {
        (dx, dy)
    }
}

/// 7.18.11's reduction of 3D derivative vectors (a volume texture's) to 2D ones of the same lengths and inner
/// angle, as the reference rasterizer does: `dX' = (|dX|, 0)`, `dY' = (dY·dX / |dX|, dY·o / |o|)` with
/// `o = dX × (dX × dY)`. Where that divides by zero (a zero or parallel vector) the lengths alone are kept, which is
/// all the isotropic LOD then needs.
pub(super) fn flatten_3d(dx: [f32; 3], dy: [f32; 3]) -> ([f32; 2], [f32; 2]) {
    let dot = |a: [f32; 3], b: [f32; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let cross = |a: [f32; 3], b: [f32; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let length_x = dot(dx, dx).sqrt();
    let length_y = dot(dy, dy).sqrt();
    let ortho = cross(dx, cross(dx, dy));
    let length_o = dot(ortho, ortho).sqrt();
    if length_x == 0.0 || length_o == 0.0 || !length_x.is_finite() || !length_o.is_finite() {
        return ([length_x, 0.0], [length_y, 0.0]);
    }
    ([length_x, 0.0], [dot(dy, dx) / length_x, dot(dy, ortho) / length_o])
}

/// 7.18.11 from derivative vectors already scaled to texels of the most detailed level (2D; a 3D texture's flattened
/// by [`flatten_3d`]): the orthogonalized vectors, then either `log2` of the longer one (isotropic) or the anisotropic
/// formulation with the sampler's maximum ratio (`max_anisotropy`, taken in 1..=16). Anisotropic: the ratio is the
/// major axis squared over the area; clamped to the maximum the minor axis becomes major / ratio, else area / major;
/// a minor axis under a texel scales the ratio by it (at least 1) and the LOD stays negative (the spec recommends
/// against the old clamp of the minor axis to 1). Both derivatives zero: LOD -inf and ratio 1, as the isotropic
/// formula gives (the anisotropic one would divide 0 by 0).
pub(super) fn footprint(dx: [f32; 2], dy: [f32; 2], anisotropic: Option<u32>) -> Footprint {
    let (dx, dy) = orthogonalize(dx, dy);
    let Some(max_anisotropy) = anisotropic else {
        return Footprint {
            lod: length2(dx).max(length2(dy)).log2(),
            anisotropy: None,
        };
    };
    let max_anisotropy = max_anisotropy.clamp(1, 16) as f32;
    let squared_x = dx[0] * dx[0] + dx[1] * dx[1];
    let squared_y = dy[0] * dy[0] + dy[1] * dy[1];
    let determinant = (dx[0] * dy[1] - dx[1] * dy[0]).abs();
    let major_is_x = squared_x > squared_y;
    let squared_major = if major_is_x { squared_x } else { squared_y };
    let length_major = squared_major.sqrt();
    let major = if major_is_x { dx } else { dy };
    if length_major == 0.0 {
        return Footprint {
            lod: f32::NEG_INFINITY,
            anisotropy: Some(Anisotropy { ratio: 1.0, major }),
        };
    }
    let mut ratio = squared_major / determinant;
    let length_minor = if ratio > max_anisotropy {
        ratio = max_anisotropy;
        length_major / ratio
    } else {
        determinant / length_major
    };
    if length_minor < 1.0 {
        ratio = (ratio * length_minor).max(1.0);
    }
    Footprint {
        lod: length_minor.log2(),
        anisotropy: Some(Anisotropy { ratio, major }),
    }
}

/// [`footprint`] under the LOD variants ([`FilterVariants`]; anisotropic footprints keep 7.18.11's rule):
/// with `lod-max-length` the squared length of the longer derivative vector as it is, otherwise of the longer axis
/// of 7.18.11's ellipse; with `lod-log2-linear` its piecewise-linear `log2` ([`linear_log2`]) halved, otherwise
/// `log2` of the length. Without either variant, [`footprint`] itself.
pub(super) fn footprint_under(
    dx: [f32; 2],
    dy: [f32; 2],
    anisotropic: Option<u32>,
    variants: FilterVariants,
) -> Footprint {
    if anisotropic.is_some() || !(variants.lod_max_length || variants.lod_log2_linear) {
        return footprint(dx, dy, anisotropic);
    }
    let (dx, dy) = if variants.lod_max_length {
        (dx, dy)
    } else {
        orthogonalize(dx, dy)
    };
    let squared = |v: [f32; 2]| v[0] * v[0] + v[1] * v[1];
    let longest = squared(dx).max(squared(dy));
    let lod = if variants.lod_log2_linear {
        0.5 * linear_log2(longest)
    } else {
        longest.sqrt().log2()
    };
    Footprint { lod, anisotropy: None }
}

/// A piecewise-linear `log2` (llvmpipe's fast approximation, exact at powers of two): for `x = M 2^E` with
/// `1 <= M < 2`, `(E - 1) + M` in float32, from the bits of `x` (so 0 gives -127 and a denormal counts as
/// exponent -127). NaN stays NaN; infinity gives infinity.
pub(super) fn linear_log2(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    let bits = x.to_bits() & 0x7fff_ffff;
    let exponent = ((bits >> 23) as i32).saturating_sub(127);
    let mantissa = f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000);
    (exponent.saturating_sub(1)) as f32 + mantissa
}

/// [`select_mips`] from the LOD in float32 (the `lod-log2-linear` variant): POINT rounds `lod + 0.5` down; LINEAR
/// reads `floor(lod)` and the next level, the next weighing `lod - floor(lod)` unquantized.
pub(super) fn select_mips_float(clamped_lod: f32, mip_linear: bool, mips: u32) -> MipChoice {
    let magnify = clamped_lod <= 0.0;
    let lod = if clamped_lod.is_nan() {
        0.0
    } else {
        clamped_lod.clamp(-128.0, 128.0)
    };
    let last = i64::from(mips.saturating_sub(1));
    let level = |value: f32| u32::try_from((value as i64).clamp(0, last)).unwrap_or(0);
    if !mip_linear {
        let nearest = level((lod + 0.5).floor());
        return MipChoice {
            floor: nearest,
            ceil: nearest,
            ceil_weight: 0.0,
            magnify,
        };
    }
    let whole = lod.floor();
    let (floor, ceil) = (level(whole), level(whole + 1.0));
    MipChoice {
        floor,
        ceil,
        ceil_weight: if floor == ceil { 0.0 } else { lod - whole },
        magnify,
    }
}

/// 7.18.11: the computed LOD plus the sampler's `MipLODBias` plus the instruction's bias (`sample_b`), then
/// `max(MinLOD, min(MaxLOD, ·))` — in that order, so MinLOD wins over a smaller MaxLOD, and by 3.1's min/max, which
/// return the other operand for a NaN (a NaN LOD becomes MaxLOD).
pub(super) fn clamp_lod(sampler: &SamplerDesc, lod: f32, instruction_bias: f32) -> f32 {
    let biased = lod + sampler.mip_lod_bias + instruction_bias;
    sampler.min_lod.max(sampler.max_lod.min(biased))
}

/// The mip level(s) a LOD reads (7.18.10).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct MipChoice {
    /// The more detailed level (view numbering).
    pub(super) floor: u32,
    /// The less detailed level; equal to `floor` when only one is read.
    pub(super) ceil: u32,
    /// The weight of `ceil` (0 when only `floor` is read); `floor` weighs 1 minus it.
    pub(super) ceil_weight: f32,
    /// Whether the magnification filter applies: clamped LOD <= 0 (7.18.11, after the clamps).
    pub(super) magnify: bool,
}

/// 7.18.10: the clamped LOD in 8.8 fixed point (3.2.4.1, nearest even; 8 integer bits cover every level, 7.18.16.1).
/// POINT mip filter: `floor(lod + 0.5)`; LINEAR: `floor(lod)` and the next level, weighed by the 8-bit fraction. The
/// levels are clamped to the view's `mips`.
pub(super) fn select_mips(clamped_lod: f32, mip_linear: bool, mips: u32) -> MipChoice {
    let magnify = clamped_lod <= 0.0;
    let fixed: i32 = if clamped_lod.is_nan() {
        0
    } else {
        (clamped_lod * 256.0).clamp(-32768.0, 32767.0).round_ties_even() as i32
    };
    let last = i64::from(mips.saturating_sub(1));
    let level = |value: i32| u32::try_from(i64::from(value).clamp(0, last)).unwrap_or(0);
    if !mip_linear {
        let nearest = level(fixed.wrapping_add(128).wrapping_shr(8));
        return MipChoice {
            floor: nearest,
            ceil: nearest,
            ceil_weight: 0.0,
            magnify,
        };
    }
    let floor = level(fixed.wrapping_shr(8));
    let ceil = level(fixed.wrapping_shr(8).wrapping_add(1));
    let fraction = (fixed & 0xff) as f32 / 256.0;
    MipChoice {
        floor,
        ceil,
        ceil_weight: if floor == ceil { 0.0 } else { fraction },
        magnify,
    }
}
