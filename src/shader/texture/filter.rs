//! The sampling engine: the taps a filter reads at each mip level, how their values combine (weighted sum,
//! comparison, minimum, maximum), and the blend across levels and anisotropic taps.

use super::address::{AxisTaps, array_slice, axis_taps, fixed_position, split_fixed};
use super::cube::{FaceCoords, face_derivatives, face_of, spill};
use super::lod::{
    Footprint, LevelOfDetail, MipChoice, clamp_lod, flatten_3d, footprint_under, select_mips, select_mips_float,
};
use super::view::{BlockCache, ComponentRange, TextureData, TextureView, component_ranges};
use crate::api::enums::{AddressMode, ComparisonFunc, SrvDimension};
use crate::api::resource::{Reduction, SamplerDesc};
use crate::format::convert::f32_to_unorm;
use crate::format::{ShaderType, Texel};
use crate::{Error, Result};

/// 7.18.16.2 / 3.1: a denormal float is flushed to a zero of its sign on the way into and out of filter arithmetic.
pub(super) fn flush(value: f32) -> f32 {
    if value.is_subnormal() {
        0.0f32.copysign(value)
    } else {
        value
    }
}

/// How the texels a filter reads are combined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Combine {
    /// A weighted sum (7.18.8).
    Weighted,
    /// Each texel's red compared with the reference (already quantized), 1.0 or 0.0, then weighted (22.4.19).
    Compare {
        /// The quantized reference value.
        reference: f32,
        /// `reference {func} texel.r`.
        func: ComparisonFunc,
    },
    /// The per-component minimum of the texels with non-zero weight (5.9.4.5.6).
    Minimum,
    /// The per-component maximum of the texels with non-zero weight (5.9.4.5.6).
    Maximum,
}

/// `reference {func} texel` by 3.1's comparison rules (NaN compares unequal and unordered), denormals flushed.
pub(super) fn compare(func: ComparisonFunc, reference: f32, texel: f32) -> bool {
    let (a, b) = (flush(reference), flush(texel));
    match func {
        ComparisonFunc::Never => false,
        ComparisonFunc::Less => a < b,
        ComparisonFunc::Equal => a == b,
        ComparisonFunc::LessEqual => a <= b,
        ComparisonFunc::Greater => a > b,
        ComparisonFunc::NotEqual => a != b,
        ComparisonFunc::GreaterEqual => a >= b,
        ComparisonFunc::Always => true,
    }
}

/// A filter result so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Partial {
    /// The combined value per component.
    pub(super) value: [f32; 4],
    /// The words of the single texel the result is, unmodified, when exactly one texel was read with weight 1 —
    /// 7.18.16.3: point sampling yields a texel exactly (22.4.15 lets denormals through or not; we let them).
    pub(super) raw: Option<Texel>,
}

impl Partial {
    /// The result as shader words.
    pub(super) fn words(&self) -> Texel {
        self.raw.unwrap_or(self.value.map(f32::to_bits))
    }
}

/// Combines texels one at a time.
#[derive(Clone, Copy, Debug)]
struct Accumulator {
    /// How.
    combine: Combine,
    /// Running sum, minimum or maximum.
    value: [f32; 4],
    /// Texels with non-zero weight so far.
    count: u32,
    /// The first such texel, and whether its weight was 1.
    first: Option<(Texel, bool)>,
}

impl Accumulator {
    /// An empty accumulator.
    fn new(combine: Combine) -> Self {
        Self {
            combine,
            value: [0.0; 4],
            count: 0,
            first: None,
        }
    }

    /// Adds `texel` (shader words; for comparisons, already compared) with `weight`. A zero weight adds nothing:
    /// 7.18.16.2 lets an implementation skip a NaN of weight 0, and 5.9.4.5.6 leaves such texels out of min/max.
    fn add(&mut self, texel: Texel, weight: f32) {
        if weight == 0.0 {
            return;
        }
        let values = texel.map(|w| flush(f32::from_bits(w)));
        match self.combine {
            Combine::Weighted | Combine::Compare { .. } => {
                for (sum, v) in self.value.iter_mut().zip(values) {
                    *sum = if self.count == 0 { v * weight } else { *sum + v * weight };
                }
            }
            Combine::Minimum | Combine::Maximum => {
                for (acc, v) in self.value.iter_mut().zip(values) {
                    *acc = if self.count == 0 {
                        v
                    } else if self.combine == Combine::Minimum {
                        acc.min(v)
                    } else {
                        acc.max(v)
                    };
                }
            }
        }
        if self.first.is_none() {
            self.first = Some((texel, weight == 1.0));
        }
        self.count = self.count.saturating_add(1);
    }

    /// The combined result.
    fn finish(&self) -> Partial {
        match (self.count, self.first) {
            (1, Some((texel, true))) => Partial {
                value: texel.map(f32::from_bits),
                raw: Some(texel),
            },
            _ => Partial {
                value: self.value.map(flush),
                raw: None,
            },
        }
    }
}

/// Blends two partial results: `a * wa + b * wb` (weighted kinds, 7.18.10's `sampleAt(mipCeil) * wMipCeil +
/// sampleAt(mipFloor) * wMipFloor`), or their minimum/maximum.
fn blend(combine: Combine, a: Partial, wa: f32, b: Partial, wb: f32) -> Partial {
    let value = match combine {
        Combine::Weighted | Combine::Compare { .. } => {
            let mut out = [0.0; 4];
            for ((o, x), y) in out.iter_mut().zip(a.value).zip(b.value) {
                *o = flush(flush(x) * wa + flush(y) * wb);
            }
            out
        }
        Combine::Minimum => {
            let mut out = a.value;
            for (o, y) in out.iter_mut().zip(b.value) {
                *o = flush(o.min(y));
            }
            out
        }
        Combine::Maximum => {
            let mut out = a.value;
            for (o, y) in out.iter_mut().zip(b.value) {
                *o = flush(o.max(y));
            }
            out
        }
    };
    Partial { value, raw: None }
}

/// Where a sample reads: the dimension's coordinates resolved.
#[derive(Clone, Copy, Debug)]
pub(super) struct Location {
    /// Normalized coordinates (u, v, w) for 1D/2D/3D, unused components 0.
    pub(super) uvw: [f32; 3],
    /// How many of them the dimension has (1, 2 or 3; 2 for cubes).
    pub(super) axes: usize,
    /// The first view slice (the array slice; for cubes the cube's first face).
    pub(super) slice: u32,
    /// The face, for cubes.
    pub(super) cube: Option<FaceCoords>,
}

/// Resolves the address operand by the view's dimension (22.4.15 "Array Resources", 7.18.7 for cubes).
pub(super) fn locate(view: &TextureView, data: &TextureData, coords: [f32; 4], instruction: &str) -> Result<Location> {
    let [a, b, c, d] = coords;
    let plain = |uvw: [f32; 3], axes: usize, slice: u32| Location {
        uvw,
        axes,
        slice,
        cube: None,
    };
    Ok(match view.dimension {
        SrvDimension::Texture1D => plain([a, 0.0, 0.0], 1, 0),
        SrvDimension::Texture1DArray => plain([a, 0.0, 0.0], 1, array_slice(b, data.slices)),
        SrvDimension::Texture2D => plain([a, b, 0.0], 2, 0),
        SrvDimension::Texture2DArray => plain([a, b, 0.0], 2, array_slice(c, data.slices)),
        SrvDimension::Texture3D => plain([a, b, c], 3, 0),
        SrvDimension::TextureCube | SrvDimension::TextureCubeArray => {
            let cubes = data.slices / 6;
            let cube = if view.dimension == SrvDimension::TextureCubeArray {
                array_slice(d, cubes)
            } else {
                0
            };
            let face = face_of([a, b, c]);
            Location {
                uvw: [face.uv[0], face.uv[1], 0.0],
                axes: 2,
                slice: cube.saturating_mul(6),
                cube: Some(face),
            }
        }
        dimension => {
            return Err(Error::new(
                "texture",
                format!("{instruction} cannot read a {dimension} view (22.4.15: not a buffer or multisample texture)"),
            ));
        }
    })
}

/// The border colour as the view format reads it (7.18.9.1): only the components the format has, each clamped to
/// its range (UNORM and SRGB [0, 1] — the colour is linear, so SRGB is not re-encoded —, SNORM [-1, 1], small
/// floats their finite range, float32 as is); the others the 19.1.3.3 defaults. Our filters compute in float32, the
/// precision 7.18.9.1 says the border is snapped to, so nothing more is rounded. Integer formats (read only by
/// `gather4`) take the colour converted toward zero and clamped to the field — D3D11 gives integer formats no border
/// colour of their own; this is our choice.
pub(super) fn border_texel(view: &TextureView, data: &TextureData, sampler: &SamplerDesc) -> Texel {
    let defaults = super::view::zero_texel(0, data.shader_type);
    let ranges = component_ranges(view.format);
    let mut texel = defaults;
    for ((word, range), value) in texel.iter_mut().zip(ranges).zip(sampler.border_color) {
        *word = match range {
            ComponentRange::Missing => *word,
            ComponentRange::Float { min, max } => {
                if value.is_nan() {
                    value.to_bits()
                } else {
                    value.clamp(min, max).to_bits()
                }
            }
            ComponentRange::Uint(bits) => {
                // Float to integer saturates in Rust (NaN to 0); then the field's range.
                let max = u32::MAX.checked_shr(32u32.saturating_sub(bits)).unwrap_or(0);
                (value.trunc() as u32).min(max)
            }
            ComponentRange::Sint(bits) => {
                let max = i32::MAX.checked_shr(32u32.saturating_sub(bits)).unwrap_or(0);
                ((value.trunc() as i32).clamp(max.wrapping_neg().wrapping_sub(1), max)) as u32
            }
        };
    }
    texel
}

/// Where one filter tap on a cube reads: a level, the cube's first face (view slice), the face and the 2D
/// coordinate on it, the face's size at that level.
#[derive(Clone, Copy, Debug)]
struct CubeTap {
    /// View mip level.
    level: u32,
    /// The view slice of the cube's +X face.
    first_face: u32,
    /// The face the direction selects.
    face: u32,
    /// (u, v) on the face.
    uv: [f32; 2],
    /// Texels per face side at the level.
    size: u32,
}

/// Everything one sample instruction's taps share.
pub(super) struct Sampling<'a> {
    /// The view's data.
    pub(super) data: &'a TextureData,
    /// The sampler.
    pub(super) sampler: &'a SamplerDesc,
    /// The view (for its border colour).
    pub(super) view: &'a TextureView,
    /// The border colour's words, once a tap has read it (7.18.9.1; worked out at most once per sample).
    pub(super) border: Option<Texel>,
    /// How texels combine.
    pub(super) combine: Combine,
    /// The immediate texel offset (u, v, w).
    pub(super) offset: [i32; 3],
    /// Decoded BC block cache.
    pub(super) cache: BlockCache,
}

impl Sampling<'_> {
    /// The border colour's words (7.18.9.1), worked out at its first use.
    fn border(&mut self) -> Texel {
        *self
            .border
            .get_or_insert_with(|| border_texel(self.view, self.data, self.sampler))
    }

    /// A texel's words as the combination reads them: the texel itself, or its comparison as 1.0 / 0.0 in every
    /// component.
    fn prepare(&self, texel: Texel) -> Texel {
        match self.combine {
            Combine::Compare { reference, func } => {
                let passed = compare(func, reference, f32::from_bits(texel[0]));
                [if passed { 1.0f32 } else { 0.0 }.to_bits(); 4]
            }
            _ => texel,
        }
    }

    /// The texels of one filter tap at view mip `level` around `location` (with `uvw` moved to an anisotropic tap),
    /// point or linear, combined.
    fn level(&mut self, level: u32, location: &Location, uvw: [f32; 3], linear: bool) -> Result<Partial> {
        let size = self
            .data
            .size(level)
            .ok_or_else(|| Error::new("texture", format!("the view has no mip {level}")))?;
        let mut accumulator = Accumulator::new(self.combine);
        if let Some(face) = &location.cube {
            let tap = CubeTap {
                level,
                first_face: location.slice,
                face: face.face,
                uv: [uvw[0], uvw[1]],
                size: size[0],
            };
            self.cube_level(&tap, linear, &mut accumulator)?;
            return Ok(accumulator.finish());
        }
        let modes = [self.sampler.address_u, self.sampler.address_v, self.sampler.address_w];
        let mut axes = [AxisTaps::UNUSED; 3];
        for (axis, taps) in axes.iter_mut().enumerate().take(location.axes) {
            let mode = modes.get(axis).copied().unwrap_or(AddressMode::Clamp);
            let (Some(&u), Some(&n)) = (uvw.get(axis), size.get(axis)) else {
                continue;
            };
            let o = self.offset.get(axis).copied().unwrap_or(0);
            *taps = axis_taps(u, mode, n, o, linear);
        }
        for tu in axes[0].used() {
            for tv in axes[1].used() {
                for tw in axes[2].used() {
                    let weight = tu.weight * tv.weight * tw.weight;
                    if weight == 0.0 {
                        continue;
                    }
                    let texel = match (tu.texel, tv.texel, tw.texel) {
                        (Some(x), Some(y), Some(z)) => {
                            self.data.texel(level, location.slice, [x, y, z], &mut self.cache)?
                        }
                        _ => self.border(),
                    };
                    accumulator.add(self.prepare(texel), weight);
                }
            }
        }
        Ok(accumulator.finish())
    }

    /// One filter tap on a cube face: address modes do not apply; linear taps past an edge read the adjacent face
    /// (7.18.12) and a corner's missing texel gives its weight in equal thirds to the other three (the reference
    /// behaviour). A point tap, which lies on the face, is clamped to it (a coordinate of exactly 1 would otherwise
    /// read past the edge).
    fn cube_level(&mut self, tap: &CubeTap, linear: bool, accumulator: &mut Accumulator) -> Result<()> {
        let CubeTap {
            level,
            first_face,
            face,
            uv,
            size,
        } = *tap;
        let (u0, fu) = split_fixed(fixed_position(uv[0], size, linear));
        let (v0, fv) = split_fixed(fixed_position(uv[1], size, linear));
        let last = i64::from(size.saturating_sub(1));
        if !linear {
            let (x, y) = (u0.clamp(0, last), v0.clamp(0, last));
            let texel = self.data.texel(
                level,
                first_face.saturating_add(face),
                [u32::try_from(x).unwrap_or(0), u32::try_from(y).unwrap_or(0), 0],
                &mut self.cache,
            )?;
            accumulator.add(self.prepare(texel), 1.0);
            return Ok(());
        }
        let footprint = [
            (u0, v0, (1.0 - fu) * (1.0 - fv)),
            (u0, v0.saturating_add(1), (1.0 - fu) * fv),
            (u0.saturating_add(1), v0, fu * (1.0 - fv)),
            (u0.saturating_add(1), v0.saturating_add(1), fu * fv),
        ];
        let texels = footprint.map(|(i, j, _)| spill(face, i, j, size));
        let missing: f32 = footprint
            .iter()
            .zip(&texels)
            .filter(|(_, t)| t.is_none())
            .map(|((_, _, w), _)| *w)
            .sum();
        for ((_, _, weight), texel) in footprint.iter().zip(&texels) {
            let Some(texel) = texel else { continue };
            let weight = if missing > 0.0 { weight + missing / 3.0 } else { *weight };
            let words = self.data.texel(
                level,
                first_face.saturating_add(texel.face),
                [texel.x, texel.y, 0],
                &mut self.cache,
            )?;
            accumulator.add(self.prepare(words), weight);
        }
        Ok(())
    }

    /// Whether this sample is filtered in 8-bit integers ([`super::lod::FilterVariants::filter_8bit`]): the variant
    /// asked, an 8-bit UNORM view format (not SRGB), weighted texels (no comparison, no min/max), one tap (no
    /// anisotropy), a 1D or 2D location (arrays too; not cubes, not volumes) addressed by WRAP or CLAMP.
    fn eight_bit(&self, location: &Location, taps: u32) -> bool {
        let modes = [self.sampler.address_u, self.sampler.address_v];
        self.view.variants.filter_8bit
            && self.view.format.info().is_8bit_unorm()
            && matches!(self.combine, Combine::Weighted)
            && taps <= 1
            && location.cube.is_none()
            && location.axes <= 2
            && modes
                .iter()
                .all(|m| matches!(m, AddressMode::Wrap | AddressMode::Clamp))
    }

    /// One level's texels filtered in 8-bit integers ([`Sampling::eight_bit`]): the codes of the (up to) four taps,
    /// lerped along u, then v, with the taps' 8-bit weights; the result codes.
    fn level_8bit(&mut self, level: u32, location: &Location, linear: bool) -> Result<[i32; 4]> {
        let size = self
            .data
            .size(level)
            .ok_or_else(|| Error::new("texture", format!("the view has no mip {level}")))?;
        let modes = [self.sampler.address_u, self.sampler.address_v];
        let mut axes = [AxisTaps::UNUSED; 2];
        for (axis, taps) in axes.iter_mut().enumerate().take(location.axes) {
            let (Some(&u), Some(&n), Some(&mode)) = (location.uvw.get(axis), size.get(axis), modes.get(axis)) else {
                continue;
            };
            *taps = axis_taps(u, mode, n, self.offset.get(axis).copied().unwrap_or(0), linear);
        }
        let mut codes = [[[0i32; 4]; 2]; 2];
        for (i, tu) in axes[0].used().iter().enumerate() {
            for (j, tv) in axes[1].used().iter().enumerate() {
                let texel = match (tu.texel, tv.texel) {
                    (Some(x), Some(y)) => self.data.texel(level, location.slice, [x, y, 0], &mut self.cache)?,
                    _ => self.border(),
                };
                if let Some(row) = codes.get_mut(j).and_then(|r| r.get_mut(i)) {
                    // the texel's own code: an 8-bit UNORM texel decodes to code / 255 (3.2.3.5), 3.2.3.6 gives it back
                    *row = texel.map(|word| f32_to_unorm(f32::from_bits(word), 8) as i32);
                }
            }
        }
        // the right (lower) tap's weight in 256ths: the 8-bit fraction, exact
        let weight = |taps: &AxisTaps| -> i32 { taps.used().get(1).map_or(0, |t| (t.weight * 256.0) as i32) };
        let (wu, wv) = (weight(&axes[0]), weight(&axes[1]));
        let [[c00, c10], [c01, c11]] = codes;
        let top = lerp_8bit_texel(c00, c10, wu);
        let bottom = lerp_8bit_texel(c01, c11, wu);
        Ok(lerp_8bit_texel(top, bottom, wv))
    }

    /// The filtered result at the chosen mip level(s), with `taps` anisotropic taps spread along `step` (normalized
    /// coordinates per tap) around the location.
    pub(super) fn filter(
        &mut self,
        location: &Location,
        mips: MipChoice,
        taps: u32,
        step: [f32; 2],
    ) -> Result<Partial> {
        let filter = self.sampler.filter;
        let linear = if mips.magnify {
            filter.mag_linear()
        } else {
            filter.min_linear()
        };
        if self.eight_bit(location, taps) {
            let floor = self.level_8bit(mips.floor, location, linear)?;
            // the level weight truncated to 8 bits; a level blend happens only when it is not 0
            let w8 = (mips.ceil_weight * 256.0) as i32;
            let codes = if w8 > 0 {
                let ceil = self.level_8bit(mips.ceil, location, linear)?;
                lerp_8bit_texel(floor, ceil, w8)
            } else {
                floor
            };
            return Ok(Partial {
                value: codes.map(|c| c as f32 / 255.0),
                raw: None,
            });
        }
        let floor = self.taps(mips.floor, location, linear, taps, step)?;
        if mips.ceil_weight == 0.0 {
            return Ok(floor);
        }
        let ceil = self.taps(mips.ceil, location, linear, taps, step)?;
        Ok(blend(
            self.combine,
            ceil,
            mips.ceil_weight,
            floor,
            1.0 - mips.ceil_weight,
        ))
    }

    /// The anisotropic taps (one for isotropic filtering) at one level: tap `i` of `n` at `(i + 0.5) / n - 0.5`
    /// steps along the line, each through range reduction and addressing on its own (7.18.6), averaged.
    fn taps(&mut self, level: u32, location: &Location, linear: bool, taps: u32, step: [f32; 2]) -> Result<Partial> {
        if taps <= 1 {
            return self.level(level, location, location.uvw, linear);
        }
        let n = taps as f32;
        let mut sum: Option<Partial> = None;
        for i in 0..taps {
            let t = (i as f32 + 0.5) - n * 0.5;
            let uvw = [
                location.uvw[0] + step[0] * t,
                location.uvw[1] + step[1] * t,
                location.uvw[2],
            ];
            let tap = self.level(level, location, uvw, linear)?;
            sum = Some(match sum {
                None => tap,
                Some(mut acc) => match self.combine {
                    Combine::Weighted | Combine::Compare { .. } => {
                        for (a, t) in acc.value.iter_mut().zip(tap.value) {
                            *a = flush(*a) + flush(t);
                        }
                        acc.raw = None;
                        acc
                    }
                    _ => blend(self.combine, acc, 1.0, tap, 1.0),
                },
            });
        }
        let sum = sum.unwrap_or(Partial {
            value: [0.0; 4],
            raw: None,
        });
        Ok(match self.combine {
            Combine::Weighted | Combine::Compare { .. } => Partial {
                value: sum.value.map(|v| flush(v / n)),
                raw: None,
            },
            _ => sum,
        })
    }
}

/// An 8-bit lerp of codes as llvmpipe's integer filter does it: `a + floor((w (b - a) + 128) / 256)`, `w` in 256ths.
fn lerp_8bit(a: i32, b: i32, w: i32) -> i32 {
    let delta = b.saturating_sub(a);
    a.saturating_add(w.saturating_mul(delta).saturating_add(128) >> 8)
}

/// [`lerp_8bit`] of each component.
fn lerp_8bit_texel(a: [i32; 4], b: [i32; 4], w: i32) -> [i32; 4] {
    [0, 1, 2, 3].map(|c| lerp_8bit(a.get(c).copied().unwrap_or(0), b.get(c).copied().unwrap_or(0), w))
}

/// Derivatives of the address scaled to texels of the view's most detailed level and flattened to 2D, as 7.18.11
/// computes them: by the level's size for 1D/2D/3D (a 3D texture's reduced to 2D when a w derivative is non-zero),
/// through the face transform and half the face size for cubes.
pub(super) fn texel_derivatives(
    data: &TextureData,
    location: &Location,
    ddx: [f32; 3],
    ddy: [f32; 3],
) -> ([f32; 2], [f32; 2]) {
    let size = data.size(0).unwrap_or([1, 1, 1]).map(|s| s as f32);
    if let Some(face) = &location.cube {
        let half = 0.5 * size[0];
        let dx = face_derivatives(face, ddx);
        let dy = face_derivatives(face, ddy);
        return ([dx[0] * half, dx[1] * half], [dy[0] * half, dy[1] * half]);
    }
    let scale = |d: [f32; 3]| {
        let mut out = [0.0f32; 3];
        for ((o, d), s) in out.iter_mut().zip(d).zip(size).take(location.axes) {
            *o = d * s;
        }
        out
    };
    let (dx, dy) = (scale(ddx), scale(ddy));
    if location.axes == 3 && (dx[2] != 0.0 || dy[2] != 0.0) {
        return flatten_3d(dx, dy);
    }
    ([dx[0], dx[1]], [dy[0], dy[1]])
}

/// The footprint and the instruction's bias for a LOD source; `anisotropic` is the sampler's maximum ratio when the
/// filter is anisotropic and the view 2D (7.18.11 `ComputeAnisotropicLOD`).
pub(super) fn resolve_lod(
    data: &TextureData,
    location: &Location,
    lod: &LevelOfDetail,
    anisotropic: Option<u32>,
    variants: super::lod::FilterVariants,
) -> (Footprint, f32) {
    match *lod {
        LevelOfDetail::Implicit { ddx, ddy } | LevelOfDetail::Gradient { ddx, ddy } => {
            let (dx, dy) = texel_derivatives(data, location, ddx, ddy);
            (footprint_under(dx, dy, anisotropic, variants), 0.0)
        }
        LevelOfDetail::Bias { ddx, ddy, bias } => {
            let (dx, dy) = texel_derivatives(data, location, ddx, ddy);
            (footprint_under(dx, dy, anisotropic, variants), bias)
        }
        LevelOfDetail::Explicit(lod) => (Footprint { lod, anisotropy: None }, 0.0),
        LevelOfDetail::Zero => (
            Footprint {
                lod: 0.0,
                anisotropy: None,
            },
            0.0,
        ),
    }
}

/// The whole of `sample*`: LOD, mip choice, anisotropic taps, filtering (7.18.5–7.18.15).
pub(super) fn sample(
    view: &TextureView,
    sampler: &SamplerDesc,
    coords: [f32; 4],
    offset: [i32; 3],
    lod: &LevelOfDetail,
    reference: Option<f32>,
) -> Result<Texel> {
    let instruction = if reference.is_some() { "sample_c" } else { "sample" };
    let data = view.texture(instruction)?;
    if matches!(data.shader_type, ShaderType::Uint | ShaderType::Sint) {
        return Err(Error::new(
            "texture",
            format!(
                "{instruction} cannot filter {}: integer formats support no sampling (19.1.4); ld and gather4 read them",
                view.format
            ),
        ));
    }
    let location = locate(view, data, coords, instruction)?;
    let filter = sampler.filter;
    let anisotropic = (filter.anisotropic()
        && matches!(view.dimension, SrvDimension::Texture2D | SrvDimension::Texture2DArray))
    .then_some(sampler.max_anisotropy);
    let (footprint, bias) = resolve_lod(data, &location, lod, anisotropic, view.variants);
    let clamped = clamp_lod(sampler, footprint.lod, bias);
    let mips = if view.variants.lod_log2_linear {
        select_mips_float(clamped, filter.mip_linear(), data.mip_count())
    } else {
        select_mips(clamped, filter.mip_linear(), data.mip_count())
    };
    let (taps, step) = anisotropic_taps(data, &footprint);
    let combine = match (reference, filter.reduction()) {
        (Some(reference), _) => Combine::Compare {
            reference: quantize_reference(view, reference),
            func: sampler.comparison,
        },
        (None, Reduction::Minimum) => Combine::Minimum,
        (None, Reduction::Maximum) => Combine::Maximum,
        (None, _) => Combine::Weighted,
    };
    let mut sampling = Sampling {
        data,
        sampler,
        view,
        border: None,
        combine,
        offset: if location.cube.is_some() { [0; 3] } else { offset },
        cache: BlockCache::new(),
    };
    let result = sampling.filter(&location, mips, taps, step)?;
    Ok(result.words())
}

/// The anisotropic taps: `ceil(ratio)` of them (at most 16), spread over the footprint's major axis — from -1/2 to
/// +1/2 of the axis vector, in normalized coordinates of the most detailed level.
pub(super) fn anisotropic_taps(data: &TextureData, footprint: &Footprint) -> (u32, [f32; 2]) {
    let Some(anisotropy) = footprint.anisotropy else {
        return (1, [0.0; 2]);
    };
    let ratio = anisotropy.ratio;
    let taps = if ratio.is_nan() {
        1
    } else {
        ratio.ceil().clamp(1.0, 16.0) as u32
    };
    if taps <= 1 {
        return (1, [0.0; 2]);
    }
    let size = data.size(0).unwrap_or([1, 1, 1]).map(|s| s as f32);
    let n = taps as f32;
    (
        taps,
        [anisotropy.major[0] / size[0] / n, anisotropy.major[1] / size[1] / n],
    )
}

/// 22.4.19: the reference value quantized to the view format's red component as depth is to a depth buffer (17.11):
/// written to the format (clamped to its range, rounded) and read back. Block-compressed formats, which cannot be
/// written, compare the reference as it is. Denormals are flushed by the comparison.
pub(super) fn quantize_reference(view: &TextureView, reference: f32) -> f32 {
    let super::view::Content::Texture(data) = &view.content else {
        return reference;
    };
    let codec = data.codec;
    if view.format.is_block_compressed() || codec.block_size() != (1, 1) {
        return reference;
    }
    let mut element = [0u8; 16];
    let Some(bytes) = element.get_mut(..codec.element_bytes()) else {
        return reference;
    };
    if codec
        .encode_masked([reference.to_bits(), 0, 0, 0], 0b0001, bytes)
        .is_err()
    {
        return reference;
    }
    match codec.decode(bytes) {
        Ok(texel) => f32::from_bits(texel[0]),
        Err(_) => reference,
    }
}

/// `gather4*`: the red (or `channel`) component of the four texels a bilinear filter of the view's most detailed
/// level reads, in the order 22.4.2 gives — (-,+), (+,+), (+,-), (-,-) half a texel from the location, i.e. texels
/// (u0, v1), (u1, v1), (u1, v0), (u0, v0) — or, with a reference, each one's comparison as 1.0 / 0.0 (22.4.3).
pub(super) fn gather(
    view: &TextureView,
    sampler: &SamplerDesc,
    coords: [f32; 4],
    offset: [i32; 2],
    channel: u8,
    reference: Option<f32>,
) -> Result<Texel> {
    let instruction = if reference.is_some() { "gather4_c" } else { "gather4" };
    let data = view.texture(instruction)?;
    if !matches!(
        view.dimension,
        SrvDimension::Texture2D
            | SrvDimension::Texture2DArray
            | SrvDimension::TextureCube
            | SrvDimension::TextureCubeArray
    ) {
        return Err(Error::new(
            "texture",
            format!(
                "{instruction} reads only 2D and cube views (22.4.2), not {}",
                view.dimension
            ),
        ));
    }
    if reference.is_some() && matches!(data.shader_type, ShaderType::Uint | ShaderType::Sint) {
        return Err(Error::new(
            "texture",
            format!(
                "{instruction} cannot compare {}: comparison needs a float format (22.4.19)",
                view.format
            ),
        ));
    }
    let location = locate(view, data, coords, instruction)?;
    let channel = usize::from(channel.min(3));
    let border = border_texel(view, data, sampler);
    let mut cache = BlockCache::new();
    let size = data.size(0).unwrap_or([1, 1, 1]);
    let quantized = reference.map(|r| quantize_reference(view, r));
    let pick = |texel: Texel| -> u32 {
        match quantized {
            Some(r) => if compare(sampler.comparison, r, f32::from_bits(texel[0])) {
                1.0f32
            } else {
                0.0
            }
            .to_bits(),
            None => texel.get(channel).copied().unwrap_or(0),
        }
    };
    // 22.4.4: only the 6 least significant bits of a programmable offset count, as a signed value; an immediate
    // offset (4 bits) is unchanged by this.
    let six_bits = |o: i32| o.wrapping_shl(26).wrapping_shr(26);
    let order = [(0usize, 1usize), (1, 1), (1, 0), (0, 0)];
    let mut out = [0u32; 4];
    if let Some(face) = &location.cube {
        let (u0, _) = split_fixed(fixed_position(face.uv[0], size[0], true));
        let (v0, _) = split_fixed(fixed_position(face.uv[1], size[0], true));
        let mut values: [Option<u32>; 4] = [None; 4];
        for (slot, (du, dv)) in values.iter_mut().zip(order) {
            let (i, j) = (u0.saturating_add(du as i64), v0.saturating_add(dv as i64));
            if let Some(t) = spill(face.face, i, j, size[0]) {
                let texel = data.texel(0, location.slice.saturating_add(t.face), [t.x, t.y, 0], &mut cache)?;
                *slot = Some(pick(texel));
            }
        }
        // 22.4.2 / 22.4.3: the missing corner texel is the average of the three real ones (after comparison).
        let kind = if quantized.is_some() {
            ShaderType::Float
        } else {
            data.shader_type
        };
        let synthesized = average_words(&values, kind);
        for (o, v) in out.iter_mut().zip(values) {
            *o = v.unwrap_or(synthesized);
        }
        return Ok(out);
    }
    let taps_u = axis_taps(location.uvw[0], sampler.address_u, size[0], six_bits(offset[0]), true);
    let taps_v = axis_taps(location.uvw[1], sampler.address_v, size[1], six_bits(offset[1]), true);
    for (o, (du, dv)) in out.iter_mut().zip(order) {
        let (Some(tu), Some(tv)) = (taps_u.taps.get(du), taps_v.taps.get(dv)) else {
            continue;
        };
        let texel = match (tu.texel, tv.texel) {
            (Some(x), Some(y)) => data.texel(0, location.slice, [x, y, 0], &mut cache)?,
            _ => border,
        };
        *o = pick(texel);
    }
    Ok(out)
}

/// The average of the words present, read as `kind` (floats, or unsigned or signed integers, rounding toward zero).
fn average_words(words: &[Option<u32>; 4], kind: ShaderType) -> u32 {
    let present = words.iter().flatten();
    let n = words.iter().flatten().count();
    if n == 0 {
        return 0;
    }
    match kind {
        ShaderType::Uint => {
            let sum: i64 = present.map(|w| i64::from(*w)).sum();
            u32::try_from(sum.checked_div(n as i64).unwrap_or(0)).unwrap_or(0)
        }
        ShaderType::Sint => {
            let sum: i64 = present.map(|w| i64::from(*w as i32)).sum();
            sum.checked_div(n as i64).unwrap_or(0) as i32 as u32
        }
        ShaderType::Float | ShaderType::None => {
            let sum: f32 = present.map(|w| flush(f32::from_bits(*w))).sum();
            flush(sum / n as f32).to_bits()
        }
    }
}
