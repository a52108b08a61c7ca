//! Hand-computed tests of resource reads and sampling. Every expected value is worked out in the comment beside it
//! from the spec's rules (section cited), never taken from this module's output.

use std::sync::Arc;

use super::*;
use crate::api::enums::{AddressMode, ComparisonFunc, Filter, ResourceDimension, SrvDimension};
use crate::api::resource::{Resource, SamplerDesc, ShaderResourceView, ShaderResourceViewDesc, Texture, TextureShape};
use crate::format::Format;

const ONE: u32 = 0x3f80_0000;

/// A texture of `shape` whose subresource (mip, slice) holds `texel(mip, slice, x, y, z)` for every texel, each
/// texel's bytes as given.
fn texture(shape: TextureShape, texel: impl Fn(u32, u32, u32, u32, u32) -> Vec<u8>) -> Arc<Resource> {
    let mut subresources = Vec::new();
    for slice in 0..shape.array_size {
        for mip in 0..shape.mip_levels {
            let [w, h, d] = shape.mip_size(mip);
            let mut bytes = Vec::new();
            for z in 0..d {
                for y in 0..h {
                    for x in 0..w {
                        bytes.extend(texel(mip, slice, x, y, z));
                    }
                }
            }
            subresources.push(Arc::from(bytes));
        }
    }
    Arc::new(Resource::Texture(Texture::new(shape, subresources).unwrap()))
}

/// A shape with the given dimension, format and sizes, one sample.
fn shape(
    dimension: ResourceDimension,
    format: Format,
    [w, h, d]: [u32; 3],
    array_size: u32,
    mips: u32,
) -> TextureShape {
    TextureShape {
        dimension,
        format,
        width: w,
        height: h,
        depth: d,
        array_size,
        mip_levels: mips,
        sample_count: 1,
    }
}

/// A float32 texture (R32_FLOAT) of a 2D shape.
fn r32f_2d(w: u32, h: u32, slices: u32, mips: u32, value: impl Fn(u32, u32, u32, u32) -> f32) -> Arc<Resource> {
    let s = shape(ResourceDimension::Texture2D, Format::R32Float, [w, h, 1], slices, mips);
    texture(s, |mip, slice, x, y, _| value(mip, slice, x, y).to_le_bytes().to_vec())
}

/// A view of `resource` with the given dimension and format and default ranges.
fn view_of(resource: &Arc<Resource>, dimension: SrvDimension, format: Format) -> TextureView {
    let desc = ShaderResourceViewDesc {
        format,
        dimension,
        array_size: match &**resource {
            Resource::Texture(t) if dimension != SrvDimension::TextureCubeArray => t.shape.array_size,
            Resource::Texture(t) => t.shape.array_size / 6,
            Resource::Buffer(_) => 1,
        },
        ..Default::default()
    };
    TextureView::new(&ShaderResourceView {
        resource: Arc::clone(resource),
        desc,
    })
    .unwrap()
}

/// A sampler with `filter`, every address mode `mode`, other state D3D11's defaults.
fn sampler(filter: Filter, mode: AddressMode) -> SamplerDesc {
    SamplerDesc {
        filter,
        address_u: mode,
        address_v: mode,
        address_w: mode,
        ..Default::default()
    }
}

/// `sample` at LOD 0 (`sample_l` with LOD 0) and no offset; the x component as a float.
fn at(view: &TextureView, sampler: &SamplerDesc, coords: [f32; 4]) -> f32 {
    f32::from_bits(sample(view, sampler, coords, [0; 3], LevelOfDetail::Explicit(0.0), None).unwrap()[0])
}

/// A 4x1 R32_FLOAT texture reading 0, 1, 2, 3 (its texel index).
fn ramp4() -> TextureView {
    view_of(
        &r32f_2d(4, 1, 1, 1, |_, _, x, _| x as f32),
        SrvDimension::Texture2D,
        Format::R32Float,
    )
}

// ---- 7.18.7 point addressing ------------------------------------------------------------------------------------

#[test]
fn a_point_sample_reads_the_texel_under_u_times_the_size() {
    // 7.18.7: u = 0.3 on 4 texels: 1.2 -> texel 1.
    let s = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    assert_eq!(at(&ramp4(), &s, [0.3, 0.5, 0.0, 0.0]), 1.0);
}

#[test]
fn a_point_coordinate_within_half_a_256th_of_a_texel_edge_rounds_onto_it() {
    // 7.18.7 + 3.2.4.1: scaled u goes to 16.8 fixed point, round to nearest even, before the floor.
    let view = ramp4();
    let s = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    // 0.2499 * 4 = 0.9996 -> 255.8976 / 256 -> 256 -> texel 1 (a float floor would give 0).
    assert_eq!(at(&view, &s, [0.2499, 0.5, 0.0, 0.0]), 1.0);
    // 0.2495 * 4 = 0.998 -> 255.488 -> 255 -> texel 0.
    assert_eq!(at(&view, &s, [0.2495, 0.5, 0.0, 0.0]), 0.0);
    // Ties go to even: 255.5/1024 * 4 * 256 = 255.5 -> 256 -> texel 1; 254.5 -> 254 -> texel 0.
    assert_eq!(at(&view, &s, [255.5 / 1024.0, 0.5, 0.0, 0.0]), 1.0);
    assert_eq!(at(&view, &s, [254.5 / 1024.0, 0.5, 0.0, 0.0]), 0.0);
}

// ---- 7.18.8 linear addressing -------------------------------------------------------------------------------------

#[test]
fn bilinear_weights_are_the_8_bit_fractions_of_u_times_size_minus_a_half() {
    // 4x4 texels reading x + 4y. u = 0.3: 0.3*4 - 0.5 = 0.7 -> 179.2/256 -> 179: texel 0, weight 179/256.
    // v = 0.55: 2.2 - 0.5 = 1.7 -> 435.2 -> 435: texel 1, weight 179/256. The texels are linear in x and y, so the
    // result is x + 4y at (179/256, 435/256) = (179 + 1740)/256 = 1919/256; every product and sum is exact in
    // float32 (multiples of 2^-16 below 16).
    let view = view_of(
        &r32f_2d(4, 4, 1, 1, |_, _, x, y| (x + 4 * y) as f32),
        SrvDimension::Texture2D,
        Format::R32Float,
    );
    let s = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    assert_eq!(at(&view, &s, [0.3, 0.55, 0.0, 0.0]), 1919.0 / 256.0);
}

#[test]
fn bilinear_weights_go_to_the_texels_in_the_spec_s_order() {
    // 2x2 texels 1, 2 (top row), 4, 8 (bottom). u = 0.375: 0.75 - 0.5 = 0.25 -> weights 0.75 (x0), 0.25 (x1);
    // v = 0.625: 1.25 - 0.5 = 0.75 -> 0.25 (y0), 0.75 (y1).
    // 1*0.75*0.25 + 4*0.75*0.75 + 2*0.25*0.25 + 8*0.25*0.75 = 0.1875 + 2.25 + 0.125 + 1.5 = 4.0625.
    let values = [[1.0, 2.0], [4.0, 8.0]];
    let view = view_of(
        &r32f_2d(2, 2, 1, 1, |_, _, x, y| values[y as usize][x as usize]),
        SrvDimension::Texture2D,
        Format::R32Float,
    );
    let s = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    assert_eq!(at(&view, &s, [0.375, 0.625, 0.0, 0.0]), 4.0625);
}

#[test]
fn srgb_texels_are_decoded_before_they_are_filtered() {
    // 22.4.15 "Return Type Control": sRGB texels convert to linear, then filter. Codes 0 and 255 are 0.0 and 1.0;
    // halfway between them (u = 0.5 on 2 texels: weights 1/2) is 0.5. Filtering the codes first would give
    // srgb(127.5) ~ 0.21.
    let s = shape(ResourceDimension::Texture2D, Format::R8G8B8A8UnormSrgb, [2, 1, 1], 1, 1);
    let resource = texture(s, |_, _, x, _, _| {
        if x == 0 {
            vec![0, 0, 0, 0]
        } else {
            vec![255, 255, 255, 255]
        }
    });
    let view = view_of(&resource, SrvDimension::Texture2D, Format::R8G8B8A8UnormSrgb);
    let out = sample(
        &view,
        &sampler(Filter::MinMagMipLinear, AddressMode::Clamp),
        [0.5, 0.5, 0.0, 0.0],
        [0; 3],
        LevelOfDetail::Zero,
        None,
    )
    .unwrap();
    assert_eq!(out.map(f32::from_bits), [0.5; 4]);
}

// ---- 7.18.6 range reduction and 7.18.9 address modes --------------------------------------------------------------

#[test]
fn wrap_repeats_the_texture_for_negative_and_large_coordinates() {
    let view = ramp4();
    let s = sampler(Filter::MinMagMipPoint, AddressMode::Wrap);
    // frac(-2.7) = 0.3 (float: 0.29999995) -> 1.1999998 -> texel 1.
    assert_eq!(at(&view, &s, [-2.7, 0.5, 0.0, 0.0]), 1.0);
    // 1000000.4 is 1000000.375 in float32 (a 16th apart there); frac = 0.375 -> 1.5 -> texel 1.
    assert_eq!(at(&view, &s, [1_000_000.4, 0.5, 0.0, 0.0]), 1.0);
    // An offset of -2 texels from texel 0 (u = 0.1 -> 0.4) is texel -2, which wraps to 2.
    let out = sample(&view, &s, [0.1, 0.5, 0.0, 0.0], [-2, 0, 0], LevelOfDetail::Zero, None).unwrap();
    assert_eq!(f32::from_bits(out[0]), 2.0);
}

#[test]
fn mirror_reflects_every_other_tile() {
    let view = ramp4();
    let s = sampler(Filter::MinMagMipPoint, AddressMode::Mirror);
    // 1.3: signedFrac(0.65) * 2 = 1.3 -> 5.2 -> texel 5; (5 / 4) is odd -> 4 - (5 % 4) - 1 = 2.
    assert_eq!(at(&view, &s, [1.3, 0.5, 0.0, 0.0]), 2.0);
    // -1.3: -1.3 -> -5.2 -> floor -6 -> 6 - 1 = 5 -> odd tile -> 2 (the mirror image of 0.7).
    assert_eq!(at(&view, &s, [-1.3, 0.5, 0.0, 0.0]), 2.0);
    // -0.3: -1.2 -> floor -2 -> 1, even tile -> 1 (the mirror image of 0.3).
    assert_eq!(at(&view, &s, [-0.3, 0.5, 0.0, 0.0]), 1.0);
    // 3.3: signedFrac(1.65) * 2 = 1.3 -> texel 2, as for 1.3 (the period is 2).
    assert_eq!(at(&view, &s, [3.3, 0.5, 0.0, 0.0]), 2.0);
    // 1000001.3 is 1000001.3125 in float32; / 2 = 500000.65625, signedFrac 0.65625, * 2 = 1.3125 -> 5.25 ->
    // texel 5 -> odd tile -> 2.
    assert_eq!(at(&view, &s, [1_000_001.3, 0.5, 0.0, 0.0]), 2.0);
}

#[test]
fn clamp_and_mirror_once_hold_the_edge_texels() {
    let view = ramp4();
    let clamp = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    assert_eq!(at(&view, &clamp, [-5.0, 0.5, 0.0, 0.0]), 0.0);
    assert_eq!(at(&view, &clamp, [17.0, 0.5, 0.0, 0.0]), 3.0);
    // 1e30 is reduced to 10 (7.18.6) -> texel 40 -> clamped to 3.
    assert_eq!(at(&view, &clamp, [1e30, 0.5, 0.0, 0.0]), 3.0);
    let once = sampler(Filter::MinMagMipPoint, AddressMode::MirrorOnce);
    // -0.3 -> -1.2 -> floor -2 -> 1 (mirrored once).
    assert_eq!(at(&view, &once, [-0.3, 0.5, 0.0, 0.0]), 1.0);
    // -1.6 -> -6.4 -> floor -7 -> 6 -> clamped to 3; 1.7 -> 6.8 -> 3.
    assert_eq!(at(&view, &once, [-1.6, 0.5, 0.0, 0.0]), 3.0);
    assert_eq!(at(&view, &once, [1.7, 0.5, 0.0, 0.0]), 3.0);
}

#[test]
fn border_reads_the_border_colour_outside_and_the_texture_inside() {
    let view = ramp4();
    let mut s = sampler(Filter::MinMagMipPoint, AddressMode::Border);
    s.border_color = [0.5, 0.25, 0.25, 0.25];
    // -0.01 -> -0.04 -> -10.24/256 -> -10 -> floor -1: border.
    assert_eq!(at(&view, &s, [-0.01, 0.5, 0.0, 0.0]), 0.5);
    // 1.0 -> texel 4: border; 0.999 -> 3.996 -> 1022.98 -> 1023 -> texel 3.
    assert_eq!(at(&view, &s, [1.0, 0.5, 0.0, 0.0]), 0.5);
    assert_eq!(at(&view, &s, [0.999, 0.5, 0.0, 0.0]), 3.0);
    // Infinity is reduced to 10: border. NaN becomes fixed-point 0 (3.2.4.1): texel 0.
    assert_eq!(at(&view, &s, [f32::INFINITY, 0.5, 0.0, 0.0]), 0.5);
    assert_eq!(at(&view, &s, [f32::NAN, 0.5, 0.0, 0.0]), 0.0);
    // One axis outside is enough (7.18.9): v = 1.5 is outside.
    assert_eq!(at(&view, &s, [0.3, 1.5, 0.0, 0.0]), 0.5);
}

#[test]
fn a_linear_tap_past_the_edge_is_addressed_on_its_own() {
    let view = ramp4();
    // u = 0: 0 - 0.5 -> texels -1 and 0, weights 1/2 each.
    // WRAP: texel -1 is texel 3: (3 + 0) / 2 = 1.5.
    let wrap = sampler(Filter::MinMagMipLinear, AddressMode::Wrap);
    assert_eq!(at(&view, &wrap, [0.0, 0.5, 0.0, 0.0]), 1.5);
    // BORDER with border red 0.5: (0.5 + 0) / 2 = 0.25.
    let mut border = sampler(Filter::MinMagMipLinear, AddressMode::Border);
    border.border_color = [0.5; 4];
    assert_eq!(at(&view, &border, [0.0, 0.5, 0.0, 0.0]), 0.25);
}

/// A format, one texel's bytes, a border colour and what a border tap reads.
type BorderCase = (Format, Vec<u8>, [f32; 4], [f32; 4]);

#[test]
fn the_border_colour_keeps_only_the_format_s_components_clamped_to_its_range() {
    // 7.18.9.1: components the format lacks read as the 19.1.3.3 defaults; the others are clamped to the format's
    // range.
    let outside = [-1.0, 0.5, 0.0, 0.0];
    let cases: [BorderCase; 5] = [
        // R8_UNORM: red clamped to 1; green, blue 0; alpha 1.
        (Format::R8Unorm, vec![7], [2.0, 0.5, 0.5, 0.5], [1.0, 0.0, 0.0, 1.0]),
        // R8G8_SNORM: red clamped to -1, green kept.
        (
            Format::R8G8Snorm,
            vec![7, 7],
            [-3.0, 0.25, 9.0, 9.0],
            [-1.0, 0.25, 0.0, 1.0],
        ),
        // float16: clamped to the largest finite half, 65504.
        (
            Format::R16G16B16A16Float,
            vec![0; 8],
            [1e6, -1e6, 0.5, 2.0],
            [65504.0, -65504.0, 0.5, 2.0],
        ),
        // sRGB: the colour is linear and is not re-encoded; only clamped.
        (
            Format::R8G8B8A8UnormSrgb,
            vec![0; 4],
            [0.5, 2.0, -1.0, 0.25],
            [0.5, 1.0, 0.0, 0.25],
        ),
        // A8_UNORM: only alpha.
        (Format::A8Unorm, vec![7], [0.3, 0.3, 0.3, 0.7], [0.0, 0.0, 0.0, 0.7]),
    ];
    for (format, bytes, border, expected) in cases {
        let s = shape(ResourceDimension::Texture2D, format, [2, 2, 1], 1, 1);
        let view = view_of(
            &texture(s, |_, _, _, _, _| bytes.clone()),
            SrvDimension::Texture2D,
            format,
        );
        let mut smp = sampler(Filter::MinMagMipPoint, AddressMode::Border);
        smp.border_color = border;
        let out = sample(&view, &smp, outside, [0; 3], LevelOfDetail::Zero, None).unwrap();
        assert_eq!(out.map(f32::from_bits), expected, "{format}");
    }
}

#[test]
fn a_point_sample_returns_the_texel_s_bits_unchanged() {
    // 7.18.16.3: point sampling yields a single texel exactly. A denormal and a NaN with a payload survive.
    let values = [f32::from_bits(0x0000_0001), f32::from_bits(0x7fc1_2345)];
    let view = view_of(
        &r32f_2d(2, 1, 1, 1, |_, _, x, _| values[x as usize]),
        SrvDimension::Texture2D,
        Format::R32Float,
    );
    let s = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    let first = sample(&view, &s, [0.25, 0.5, 0.0, 0.0], [0; 3], LevelOfDetail::Zero, None).unwrap();
    let second = sample(&view, &s, [0.75, 0.5, 0.0, 0.0], [0; 3], LevelOfDetail::Zero, None).unwrap();
    assert_eq!(first[0], 0x0000_0001);
    assert_eq!(second[0], 0x7fc1_2345);
}

// ---- 7.18.11 LOD and 7.18.10 mip selection ------------------------------------------------------------------------

/// A 16x16 R32_FLOAT texture with 5 mips, every texel of mip m reading m.
fn mip_ladder() -> Arc<Resource> {
    r32f_2d(16, 16, 1, 5, |mip, _, _, _| mip as f32)
}

/// `sample` at the centre of `view` with derivatives of (`dx` texels, 0) and (0, `dy` texels) on a 16-texel level.
fn with_derivatives(view: &TextureView, s: &SamplerDesc, dx: f32, dy: f32) -> f32 {
    let lod = LevelOfDetail::Gradient {
        ddx: [dx / 16.0, 0.0, 0.0],
        ddy: [0.0, dy / 16.0, 0.0],
    };
    f32::from_bits(sample(view, s, [0.5, 0.5, 0.0, 0.0], [0; 3], lod, None).unwrap()[0])
}

#[test]
fn the_lod_is_log2_of_the_longer_derivative_in_texels() {
    let view = view_of(&mip_ladder(), SrvDimension::Texture2D, Format::R32Float);
    let point = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    // 4 texels: LOD 2 -> mip 2.
    assert_eq!(with_derivatives(&view, &point, 4.0, 1.0), 2.0);
    // 3 texels: log2 3 = 1.58496 -> 8.8 fixed 405.75 -> 406: mips 1 and 2, mip 2 weighing 150/256.
    // 2 * 150/256 + 1 * 106/256 = 406/256.
    let linear = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    assert_eq!(with_derivatives(&view, &linear, 3.0, 1.0), 406.0 / 256.0);
    // The y derivative can be the longer one.
    assert_eq!(with_derivatives(&view, &point, 1.0, 8.0), 3.0);
}

#[test]
fn bias_and_clamps_apply_in_the_spec_s_order() {
    let view = view_of(&mip_ladder(), SrvDimension::Texture2D, Format::R32Float);
    let mut s = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    // LOD 0 + MipLODBias 0.5 + sample_b's 0.25 = 0.75 -> mip 1 weighing 0.75.
    s.mip_lod_bias = 0.5;
    let lod = LevelOfDetail::Bias {
        ddx: [1.0 / 16.0, 0.0, 0.0],
        ddy: [0.0, 1.0 / 16.0, 0.0],
        bias: 0.25,
    };
    let out = sample(&view, &s, [0.5, 0.5, 0.0, 0.0], [0; 3], lod, None).unwrap();
    assert_eq!(f32::from_bits(out[0]), 0.75);
    // MinLOD 2.5 lifts LOD 0 to 2.5.
    let mut s = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    s.min_lod = 2.5;
    assert_eq!(with_derivatives(&view, &s, 1.0, 1.0), 2.5);
    // MaxLOD 1.25 holds LOD 3 (8 texels) at 1.25.
    let mut s = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    s.max_lod = 1.25;
    assert_eq!(with_derivatives(&view, &s, 8.0, 1.0), 1.25);
    // MinLOD 3 over MaxLOD 1: max(MinLOD, min(MaxLOD, lod)) = 3.
    s.min_lod = 3.0;
    s.max_lod = 1.0;
    assert_eq!(with_derivatives(&view, &s, 1.0, 1.0), 3.0);
}

#[test]
fn degenerate_derivatives_pick_the_ends_of_the_chain() {
    let view = view_of(&mip_ladder(), SrvDimension::Texture2D, Format::R32Float);
    let s = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    // Zero derivatives: log2 0 = -inf -> MinLOD (-FLT_MAX) -> mip 0.
    assert_eq!(with_derivatives(&view, &s, 0.0, 0.0), 0.0);
    // Both NaN: the LOD is NaN, and min(MaxLOD, NaN) = MaxLOD (3.1) = FLT_MAX -> the last mip, 4.
    assert_eq!(with_derivatives(&view, &s, f32::NAN, f32::NAN), 4.0);
    // One NaN: max(|dX|, |dY|) returns the other length (3.1's max ignores a NaN): 1 texel -> mip 0.
    assert_eq!(with_derivatives(&view, &s, f32::NAN, 1.0), 0.0);
    // Huge: LOD ~103 -> the last mip.
    assert_eq!(with_derivatives(&view, &s, 1e30, 1.0), 4.0);
}

#[test]
fn point_mip_selection_rounds_in_8_8_fixed_point() {
    // 7.18.10: LOD to 8.8 (nearest even), + 0.5, integer part.
    let view = view_of(&mip_ladder(), SrvDimension::Texture2D, Format::R32Float);
    let s = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    let at_lod = |lod: f32| {
        let out = sample(
            &view,
            &s,
            [0.5, 0.5, 0.0, 0.0],
            [0; 3],
            LevelOfDetail::Explicit(lod),
            None,
        )
        .unwrap();
        f32::from_bits(out[0])
    };
    assert_eq!(at_lod(1.5), 2.0);
    // 1.498046875 * 256 = 383.5 -> 384 (even) -> +128 = 512 -> mip 2.
    assert_eq!(at_lod(1.498_046_9), 2.0);
    // 1.4970703125 * 256 = 383.25 -> 383 -> 511 -> mip 1.
    assert_eq!(at_lod(1.497_070_3), 1.0);
    // 1.494140625 * 256 = 382.5 -> 382 (even) -> 510 -> mip 1.
    assert_eq!(at_lod(1.494_140_6), 1.0);
}

#[test]
fn linear_mip_weights_are_8_bit_fractions() {
    let view = view_of(&mip_ladder(), SrvDimension::Texture2D, Format::R32Float);
    let s = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    let at_lod = |lod: f32| {
        let out = sample(
            &view,
            &s,
            [0.5, 0.5, 0.0, 0.0],
            [0; 3],
            LevelOfDetail::Explicit(lod),
            None,
        )
        .unwrap();
        f32::from_bits(out[0])
    };
    // 1 + 1/512 -> 256.5 -> 256 (even): exactly mip 1.
    assert_eq!(at_lod(1.0 + 1.0 / 512.0), 1.0);
    // 1 + 3/512 -> 258.5 -> 258: mip 2 weighs 2/256: 2*2/256 + 1*254/256 = 258/256.
    assert_eq!(at_lod(1.0 + 3.0 / 512.0), 258.0 / 256.0);
    // Past the chain both levels clamp to the last.
    assert_eq!(at_lod(9.5), 4.0);
}

#[test]
fn a_view_numbers_mips_from_its_most_detailed_one() {
    // 5.2: view of mips 1..=2. LOD 0 reads resource mip 1, LOD 5 clamps to the view's last, resource mip 2.
    let desc = ShaderResourceViewDesc {
        format: Format::R32Float,
        dimension: SrvDimension::Texture2D,
        most_detailed_mip: 1,
        mip_levels: 2,
        ..Default::default()
    };
    let view = TextureView::new(&ShaderResourceView {
        resource: mip_ladder(),
        desc,
    })
    .unwrap();
    let s = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    let at_lod = |lod: f32| {
        let out = sample(
            &view,
            &s,
            [0.5, 0.5, 0.0, 0.0],
            [0; 3],
            LevelOfDetail::Explicit(lod),
            None,
        )
        .unwrap();
        f32::from_bits(out[0])
    };
    assert_eq!(at_lod(0.0), 1.0);
    assert_eq!(at_lod(5.0), 2.0);
    // resinfo reports the view's levels: mip 0 of the view is 8x8, and there are 2.
    assert_eq!(dimensions(&view, 0), [8, 8, 0, 2]);
}

#[test]
fn magnification_is_chosen_after_the_clamp() {
    // MIN_POINT_MAG_LINEAR_MIP_POINT on 0, 1, 2, 3 at u = 0.3. Linear: 1.2 - 0.5 = 0.7 -> 179/256 between texels 0
    // and 1 = 179/256; point: texel 1.
    let view = ramp4();
    let s = sampler(Filter::MinPointMagLinearMipPoint, AddressMode::Clamp);
    let at_lod = |lod: f32| {
        let out = sample(
            &view,
            &s,
            [0.3, 0.5, 0.0, 0.0],
            [0; 3],
            LevelOfDetail::Explicit(lod),
            None,
        )
        .unwrap();
        f32::from_bits(out[0])
    };
    assert_eq!(at_lod(-1.0), 179.0 / 256.0);
    assert_eq!(at_lod(0.0), 179.0 / 256.0); // LOD <= 0 magnifies
    assert_eq!(at_lod(0.25), 1.0);
    // MinLOD 0.5 turns a magnified LOD into a minified one.
    let mut s = s;
    s.min_lod = 0.5;
    let out = sample(
        &view,
        &s,
        [0.3, 0.5, 0.0, 0.0],
        [0; 3],
        LevelOfDetail::Explicit(-1.0),
        None,
    )
    .unwrap();
    assert_eq!(f32::from_bits(out[0]), 1.0);
}

#[test]
fn skewed_derivatives_take_the_lod_of_their_ellipse() {
    // 7.18.11's ideal transformation. dX = (1, 1), dY = (1, 0) texels span an ellipse with semi-axes
    // (3 +- sqrt 5) / 2 squared, i.e. 1.618034 and 0.618034 (the singular values of [[1, 1], [1, 0]]).
    // Isotropic LOD: log2 1.618034 = 0.694242 (the untransformed max(|dX|, |dY|) would give log2 sqrt 2 = 0.5).
    let view = view_of(&mip_ladder(), SrvDimension::Texture2D, Format::R32Float);
    let s = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    let [_, unclamped] = lod(
        &view,
        &s,
        [0.5, 0.5, 0.0, 0.0],
        [1.0 / 16.0, 1.0 / 16.0, 0.0],
        [1.0 / 16.0, 0.0, 0.0],
    );
    assert!((unclamped - 0.694_242).abs() < 1e-5, "{unclamped}");
    // Anisotropic: the minor axis 0.618034, LOD log2 0.618034 = -0.694242 (ratio 2.618 <= 16).
    let a = sampler(Filter::Anisotropic, AddressMode::Clamp);
    let a = SamplerDesc {
        max_anisotropy: 16,
        ..a
    };
    let [_, unclamped] = lod(
        &view,
        &a,
        [0.5, 0.5, 0.0, 0.0],
        [1.0 / 16.0, 1.0 / 16.0, 0.0],
        [1.0 / 16.0, 0.0, 0.0],
    );
    assert!((unclamped + 0.694_242).abs() < 1e-5, "{unclamped}");
}

#[test]
fn the_lod_instruction_returns_the_clamped_and_the_unclamped_lod() {
    // 22.5.6: derivatives of 4 texels -> LOD 2 (+ MipLODBias 0.5 = 2.5, unclamped). The clamped LOD also obeys
    // MaxLOD 2.25 and, on a 1-level view, the view's levels: 0.
    let view = view_of(&mip_ladder(), SrvDimension::Texture2D, Format::R32Float);
    let mut s = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    s.mip_lod_bias = 0.5;
    s.max_lod = 2.25;
    let d = ([4.0 / 16.0, 0.0, 0.0], [0.0, 1.0 / 16.0, 0.0]);
    assert_eq!(lod(&view, &s, [0.5; 4], d.0, d.1), [2.25, 2.5]);
    let one_level = view_of(
        &r32f_2d(16, 16, 1, 1, |_, _, _, _| 0.0),
        SrvDimension::Texture2D,
        Format::R32Float,
    );
    assert_eq!(lod(&one_level, &s, [0.5; 4], d.0, d.1), [0.0, 2.5]);
}

// ---- anisotropic filtering ------------------------------------------------------------------------------------------

/// 16x16, 5 mips: mip 0 reads x², mip 1 reads 1000 + x², the rest 100 * mip.
fn squares() -> TextureView {
    let resource = r32f_2d(16, 16, 1, 5, |mip, _, x, _| match mip {
        0 => (x * x) as f32,
        1 => 1000.0 + (x * x) as f32,
        m => 100.0 * m as f32,
    });
    view_of(&resource, SrvDimension::Texture2D, Format::R32Float)
}

#[test]
fn anisotropic_filtering_takes_ceil_ratio_taps_along_the_major_axis() {
    // dX = (4, 0), dY = (0, 1) texels: perpendicular, so no transform. Major X, ratio 16 / 4 = 4 <= 16, minor axis
    // 4 / 4 = 1 -> LOD 0 (mip 0). 4 taps at -1.5, -0.5, 0.5, 1.5 steps of 4/4 = 1 texel from u = 0.5 (texel
    // position 8): positions 6.5 .. 9.5, i.e. texel centres 6, 7, 8, 9 -> (36 + 49 + 64 + 81) / 4 = 57.5.
    // (Bilinear at the centre would be (49 + 64) / 2 = 56.5; trilinear at LOD log2 4 = 2 would read mip 2: 200.)
    let view = squares();
    let s = SamplerDesc {
        max_anisotropy: 16,
        ..sampler(Filter::Anisotropic, AddressMode::Clamp)
    };
    let lod = LevelOfDetail::Gradient {
        ddx: [4.0 / 16.0, 0.0, 0.0],
        ddy: [0.0, 1.0 / 16.0, 0.0],
    };
    let out = sample(&view, &s, [0.5, 0.5, 0.0, 0.0], [0; 3], lod, None).unwrap();
    assert_eq!(f32::from_bits(out[0]), 57.5);
    // sample_l is isotropic: bilinear at the centre of mip 0.
    let out = sample(
        &view,
        &s,
        [0.5, 0.5, 0.0, 0.0],
        [0; 3],
        LevelOfDetail::Explicit(0.0),
        None,
    )
    .unwrap();
    assert_eq!(f32::from_bits(out[0]), 56.5);
}

#[test]
fn a_clamped_anisotropy_ratio_raises_the_lod() {
    // As above with MaxAnisotropy 2: ratio 4 > 2 -> 2; minor axis 4 / 2 = 2 -> LOD 1 (mip 1, 8 texels wide).
    // 2 taps at -0.5 and 0.5 steps of (4/16)/2 = 1/8 in u: u = 0.4375 and 0.5625 -> at mip 1 texel positions
    // 3.5 and 4.5, texel centres 3 and 4: (1009 + 1016) / 2 = 1012.5.
    let view = squares();
    let s = SamplerDesc {
        max_anisotropy: 2,
        ..sampler(Filter::Anisotropic, AddressMode::Clamp)
    };
    let lod = LevelOfDetail::Gradient {
        ddx: [4.0 / 16.0, 0.0, 0.0],
        ddy: [0.0, 1.0 / 16.0, 0.0],
    };
    let out = sample(&view, &s, [0.5, 0.5, 0.0, 0.0], [0; 3], lod, None).unwrap();
    assert_eq!(f32::from_bits(out[0]), 1012.5);
}

// ---- min/max reduction (5.9.4.5.6) ---------------------------------------------------------------------------------

#[test]
fn minimum_and_maximum_filters_reduce_the_texels_of_non_zero_weight() {
    let values = [1.0, 5.0, 3.0, 7.0];
    let view = view_of(
        &r32f_2d(4, 1, 1, 1, |_, _, x, _| values[x as usize]),
        SrvDimension::Texture2D,
        Format::R32Float,
    );
    let min = sampler(Filter::MinimumMinMagMipLinear, AddressMode::Clamp);
    let max = sampler(Filter::MaximumMinMagMipLinear, AddressMode::Clamp);
    // u = 0.5: 2 - 0.5 = 1.5 -> texels 1 and 2, each 1/2: min 3, max 5.
    assert_eq!(at(&view, &min, [0.5, 0.5, 0.0, 0.0]), 3.0);
    assert_eq!(at(&view, &max, [0.5, 0.5, 0.0, 0.0]), 5.0);
    // u = 0.375: 1.5 - 0.5 = 1.0 -> texel 1 weighs 1, texel 2 weighs 0 and is left out: 5 for both.
    assert_eq!(at(&view, &min, [0.375, 0.5, 0.0, 0.0]), 5.0);
    assert_eq!(at(&view, &max, [0.375, 0.5, 0.0, 0.0]), 5.0);
}

// ---- comparison (22.4.19) -------------------------------------------------------------------------------------------

#[test]
fn comparison_filtering_filters_the_pass_fail_results() {
    let view = view_of(
        &r32f_2d(2, 1, 1, 1, |_, _, x, _| if x == 0 { 0.25 } else { 0.75 }),
        SrvDimension::Texture2D,
        Format::R32Float,
    );
    let mut s = sampler(Filter::ComparisonMinMagMipLinear, AddressMode::Clamp);
    s.comparison = ComparisonFunc::Less;
    // u = 0.5: texels 0 and 1 each 1/2. 0.5 < 0.25 fails (0), 0.5 < 0.75 passes (1): 0.5 in every component.
    let out = sample(&view, &s, [0.5, 0.5, 0.0, 0.0], [0; 3], LevelOfDetail::Zero, Some(0.5)).unwrap();
    assert_eq!(out, [0.5f32.to_bits(); 4]);
    // At texel 0's centre only texel 0 counts: 0.
    let out = sample(&view, &s, [0.25, 0.5, 0.0, 0.0], [0; 3], LevelOfDetail::Zero, Some(0.5)).unwrap();
    assert_eq!(out, [0; 4]);
    // Border texels compare the border's red: 0.5 < 0.9 passes.
    let mut s = sampler(Filter::ComparisonMinMagMipPoint, AddressMode::Border);
    s.comparison = ComparisonFunc::Less;
    s.border_color = [0.9, 0.0, 0.0, 0.0];
    let out = sample(&view, &s, [-0.5, 0.5, 0.0, 0.0], [0; 3], LevelOfDetail::Zero, Some(0.5)).unwrap();
    assert_eq!(out, [ONE; 4]);
}

#[test]
fn the_comparison_reference_is_quantized_to_the_texture_format() {
    // 22.4.19: the reference is quantized like depth (17.11). R16_UNORM code 32768 reads 32768/65535 = 0.5000076;
    // the reference 0.5 becomes round(0.5 * 65535) = 32768, so EQUAL passes. 2.0 clamps to 1.0 = code 65535.
    let s = shape(ResourceDimension::Texture2D, Format::R16Unorm, [2, 1, 1], 1, 1);
    let resource = texture(s, |_, _, x, _, _| {
        if x == 0 {
            32768u16.to_le_bytes().to_vec()
        } else {
            vec![0xff, 0xff]
        }
    });
    let view = view_of(&resource, SrvDimension::Texture2D, Format::R16Unorm);
    let mut smp = sampler(Filter::ComparisonMinMagMipPoint, AddressMode::Clamp);
    smp.comparison = ComparisonFunc::Equal;
    let first = sample(
        &view,
        &smp,
        [0.25, 0.5, 0.0, 0.0],
        [0; 3],
        LevelOfDetail::Zero,
        Some(0.5),
    )
    .unwrap();
    assert_eq!(first, [ONE; 4]);
    let second = sample(
        &view,
        &smp,
        [0.75, 0.5, 0.0, 0.0],
        [0; 3],
        LevelOfDetail::Zero,
        Some(2.0),
    )
    .unwrap();
    assert_eq!(second, [ONE; 4]);
}

// ---- gather (22.4.2 - 22.4.5) ---------------------------------------------------------------------------------------

/// 4x4 R32_FLOAT reading x + 10y.
fn tens() -> TextureView {
    view_of(
        &r32f_2d(4, 4, 1, 1, |_, _, x, y| (x + 10 * y) as f32),
        SrvDimension::Texture2D,
        Format::R32Float,
    )
}

fn floats(words: [u32; 4]) -> [f32; 4] {
    words.map(f32::from_bits)
}

#[test]
fn gather_returns_the_footprint_counter_clockwise_from_the_lower_left() {
    // u = 0.4375: 1.75 - 0.5 = 1.25 -> u0 = 1; v = 0.6875: 2.75 - 0.5 = 2.25 -> v0 = 2.
    // (u0, v1), (u1, v1), (u1, v0), (u0, v0) = 31, 32, 22, 21.
    let s = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    let out = gather(&tens(), &s, [0.4375, 0.6875, 0.0, 0.0], [0, 0], 0, None).unwrap();
    assert_eq!(floats(out), [31.0, 32.0, 22.0, 21.0]);
    // Offset (1, -1): u0 = 2, v0 = 1: 22, 23, 13, 12.
    let out = gather(&tens(), &s, [0.4375, 0.6875, 0.0, 0.0], [1, -1], 0, None).unwrap();
    assert_eq!(floats(out), [22.0, 23.0, 13.0, 12.0]);
    // A programmable offset keeps its low 6 bits, signed: 63 is -1 and 65 is 1: u0 = 0, v0 = 3, v1 = 4 -> clamp 3.
    let out = gather(&tens(), &s, [0.4375, 0.6875, 0.0, 0.0], [63, 65], 0, None).unwrap();
    assert_eq!(floats(out), [30.0, 31.0, 31.0, 30.0]);
}

#[test]
fn gather_picks_a_component_and_its_default() {
    // RGBA float texels (x, y, 100 + x, 200 + y): component 2 of the footprint above is 101, 102, 102, 101.
    let s = shape(ResourceDimension::Texture2D, Format::R32G32B32A32Float, [4, 4, 1], 1, 1);
    let resource = texture(s, |_, _, x, y, _| {
        [x as f32, y as f32, 100.0 + x as f32, 200.0 + y as f32]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect()
    });
    let view = view_of(&resource, SrvDimension::Texture2D, Format::R32G32B32A32Float);
    let smp = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    let out = gather(&view, &smp, [0.4375, 0.6875, 0.0, 0.0], [0, 0], 2, None).unwrap();
    assert_eq!(floats(out), [101.0, 102.0, 102.0, 101.0]);
    // R32_FLOAT has no alpha: component 3 is the default 1.0 (19.1.3.3).
    let out = gather(&tens(), &smp, [0.4375, 0.6875, 0.0, 0.0], [0, 0], 3, None).unwrap();
    assert_eq!(out, [ONE; 4]);
}

#[test]
fn gather_reads_integer_formats_and_compares_float_ones() {
    let s = shape(ResourceDimension::Texture2D, Format::R32Uint, [4, 4, 1], 1, 1);
    let resource = texture(s, |_, _, x, y, _| (x + 10 * y).to_le_bytes().to_vec());
    let view = view_of(&resource, SrvDimension::Texture2D, Format::R32Uint);
    let smp = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    assert_eq!(
        gather(&view, &smp, [0.4375, 0.6875, 0.0, 0.0], [0, 0], 0, None).unwrap(),
        [31, 32, 22, 21]
    );
    // gather4_c: 21.5 < texel? 31, 32, 22 pass; 21 fails.
    let mut cmp = sampler(Filter::ComparisonMinMagMipPoint, AddressMode::Clamp);
    cmp.comparison = ComparisonFunc::Less;
    let out = gather(&tens(), &cmp, [0.4375, 0.6875, 0.0, 0.0], [0, 0], 0, Some(21.5)).unwrap();
    assert_eq!(out, [ONE, ONE, ONE, 0]);
}

// ---- ld (22.4.6, 22.4.7) -------------------------------------------------------------------------------------------

#[test]
fn ld_out_of_range_returns_zero_and_the_missing_component_defaults() {
    // R8_UNORM: (0, 0, 0, 1.0); R16G16_UINT: (0, 0, 0, 1).
    let unorm = texture(
        shape(ResourceDimension::Texture2D, Format::R8Unorm, [2, 2, 1], 2, 2),
        |_, _, _, _, _| vec![255],
    );
    let view = view_of(&unorm, SrvDimension::Texture2DArray, Format::R8Unorm);
    assert_eq!(load(&view, [1, 1, 1, 0], [0; 3], 0).unwrap(), [ONE, 0, 0, ONE]);
    assert_eq!(load(&view, [2, 0, 0, 0], [0; 3], 0).unwrap(), [0, 0, 0, ONE]); // x past the width
    assert_eq!(load(&view, [0, 0, 2, 0], [0; 3], 0).unwrap(), [0, 0, 0, ONE]); // slice past the array
    assert_eq!(load(&view, [0, 0, 0, 2], [0; 3], 0).unwrap(), [0, 0, 0, ONE]); // mip past the chain
    assert_eq!(load(&view, [1, 0, 0, 1], [0; 3], 0).unwrap(), [0, 0, 0, ONE]); // mip 1 is 1x1
    assert_eq!(load(&view, [-1, 0, 0, 0], [0; 3], 0).unwrap(), [0, 0, 0, ONE]); // unsigned: huge
    // An offset below 0 wraps to a huge address (22.4.6): out of range. Within range it moves the texel.
    assert_eq!(load(&view, [0, 0, 0, 0], [-1, 0, 0], 0).unwrap(), [0, 0, 0, ONE]);
    assert_eq!(load(&view, [0, 0, 0, 0], [1, 1, 0], 0).unwrap(), [ONE, 0, 0, ONE]);
    let uint = texture(
        shape(ResourceDimension::Texture2D, Format::R16G16Uint, [2, 2, 1], 1, 1),
        |_, _, x, y, _| [(x as u16).to_le_bytes(), (y as u16 + 7).to_le_bytes()].concat(),
    );
    let view = view_of(&uint, SrvDimension::Texture2D, Format::R16G16Uint);
    assert_eq!(load(&view, [1, 1, 0, 0], [0; 3], 0).unwrap(), [1, 8, 0, 1]);
    assert_eq!(load(&view, [5, 1, 0, 0], [0; 3], 0).unwrap(), [0, 0, 0, 1]);
}

#[test]
fn ld_reads_each_dimension_s_address_components() {
    // 1D: x and the mip in w (y, z ignored). 1D array: slice in y. 3D: z.
    let one_d = texture(
        shape(ResourceDimension::Texture1D, Format::R32Float, [4, 1, 1], 2, 2),
        |mip, slice, x, _, _| (100 * slice + 10 * mip + x).to_le_bytes().to_vec(),
    );
    let view = view_of(&one_d, SrvDimension::Texture1D, Format::R32Float);
    assert_eq!(load(&view, [3, 99, 99, 0], [0; 3], 0).unwrap()[0], 3);
    assert_eq!(load(&view, [1, 99, 99, 1], [0; 3], 0).unwrap()[0], 11);
    let array = view_of(&one_d, SrvDimension::Texture1DArray, Format::R32Float);
    assert_eq!(load(&array, [2, 1, 99, 0], [0; 3], 0).unwrap()[0], 102);
    let three_d = texture(
        shape(ResourceDimension::Texture3D, Format::R32Float, [2, 2, 4], 1, 1),
        |_, _, x, y, z| (x + 2 * y + 4 * z).to_le_bytes().to_vec(),
    );
    let view = view_of(&three_d, SrvDimension::Texture3D, Format::R32Float);
    assert_eq!(load(&view, [1, 0, 3, 0], [0; 3], 0).unwrap()[0], 13);
    assert_eq!(load(&view, [1, 0, 3, 0], [0, 1, -1], 0).unwrap()[0], 11);
}

/// A multisampled R32_UINT texture of `w` x `h` texels, `slices` slices and `samples` samples, laid out as
/// `api::resource` stores one (each slice's subresource is `samples` planes, sample 0's first), sample `s` of texel
/// (x, y) of slice `slice` holding `value(slice, s, x, y)`.
fn multisampled(w: u32, h: u32, slices: u32, samples: u32, value: impl Fn(u32, u32, u32, u32) -> u32) -> Arc<Resource> {
    let mut s = shape(ResourceDimension::Texture2D, Format::R32Uint, [w, h, 1], slices, 1);
    s.sample_count = samples;
    let mut subresources = Vec::new();
    for slice in 0..slices {
        let mut bytes = Vec::new();
        for sample in 0..samples {
            for y in 0..h {
                for x in 0..w {
                    bytes.extend(value(slice, sample, x, y).to_le_bytes());
                }
            }
        }
        subresources.push(Arc::from(bytes));
    }
    Arc::new(Resource::Texture(Texture::new(s, subresources).unwrap()))
}

/// A multisample view of `resource`: `Texture2DMS` or `Texture2DMSArray` of slices `first..first + count`.
fn ms_view(resource: &Arc<Resource>, dimension: SrvDimension, first: u32, count: u32) -> Result<TextureView> {
    TextureView::new(&ShaderResourceView {
        resource: Arc::clone(resource),
        desc: ShaderResourceViewDesc {
            format: Format::Unknown,
            dimension,
            first_array_slice: first,
            array_size: count,
            ..Default::default()
        },
    })
}

#[test]
fn ld2dms_reads_each_sample_of_each_texel() {
    // A 2x2 texture of 4 samples, sample s of (x, y) holding 100 * s + 10 * y + x: sixteen different values.
    let resource = multisampled(2, 2, 1, 4, |_, s, x, y| 100 * s + 10 * y + x);
    let view = ms_view(&resource, SrvDimension::Texture2DMs, 0, 1).unwrap();
    // R32_UINT: the value in x, 0 in y and z, 0x1 in w (19.1.3.3's integer default for alpha).
    for s in 0..4 {
        for y in 0..2 {
            for x in 0..2 {
                let expected = 100 * s + 10 * y + x;
                assert_eq!(
                    load(&view, [x as i32, y as i32, 0, 0], [0; 3], s).unwrap(),
                    [expected, 0, 0, 1]
                );
            }
        }
    }
    // 22.4.7: ".b ... is ignored for Texture2Ds", ".a ... is always ignored": (1, 0) of sample 2 = 201.
    assert_eq!(load(&view, [1, 0, 7, 9], [0; 3], 2).unwrap(), [201, 0, 0, 1]);
    // _aoffimmi(u, v) is added in texel space: (0, 1) + (1, -1) = (1, 0), sample 3 = 301.
    assert_eq!(load(&view, [0, 1, 0, 0], [1, -1, 0], 3).unwrap(), [301, 0, 0, 1]);
    assert_eq!(sample_count(&view), 4);
}

#[test]
fn ld2dms_out_of_range_reads_zero() {
    let resource = multisampled(2, 2, 1, 4, |_, s, x, y| 100 * s + 10 * y + x + 1);
    let view = ms_view(&resource, SrvDimension::Texture2DMs, 0, 1).unwrap();
    // 22.4.7: an address outside [0, size - 1] returns 0 in the format's components and 0x1 in the missing alpha;
    // an offset below zero wraps to a large address, out of range too. A sample index past the count is undefined
    // there ("a future version" makes it behave as the others): it reads the same.
    let zero = [0, 0, 0, 1];
    assert_eq!(load(&view, [2, 0, 0, 0], [0; 3], 0).unwrap(), zero);
    assert_eq!(load(&view, [0, 2, 0, 0], [0; 3], 0).unwrap(), zero);
    assert_eq!(load(&view, [-1, 0, 0, 0], [0; 3], 0).unwrap(), zero);
    assert_eq!(load(&view, [0, 0, 0, 0], [-1, 0, 0], 1).unwrap(), zero);
    assert_eq!(load(&view, [1, 1, 0, 0], [0; 3], 4).unwrap(), zero);
    assert_eq!(load(&view, [1, 1, 0, 0], [0; 3], u32::MAX).unwrap(), zero);
    // In range: (1, 1) sample 3 = 311 + 1.
    assert_eq!(load(&view, [1, 1, 0, 0], [0; 3], 3).unwrap(), [312, 0, 0, 1]);
}

#[test]
fn ld2dms_of_an_array_view_reads_the_view_s_slices() {
    // Three slices of a 2x1 texture of 2 samples, sample s of (x, 0) in slice k holding 1000 * k + 100 * s + x; the
    // view sees slices 1 and 2, so its slice 0 is the resource's slice 1.
    let resource = multisampled(2, 1, 3, 2, |k, s, x, _| 1000 * k + 100 * s + x);
    let view = ms_view(&resource, SrvDimension::Texture2DMsArray, 1, 2).unwrap();
    assert_eq!(load(&view, [1, 0, 0, 0], [0; 3], 1).unwrap()[0], 1101);
    assert_eq!(load(&view, [0, 0, 1, 0], [0; 3], 0).unwrap()[0], 2000);
    // 22.4.7: an array index past the view's slices returns 0; offsets do not move it.
    assert_eq!(load(&view, [0, 0, 2, 0], [0; 3], 0).unwrap(), [0, 0, 0, 1]);
    assert_eq!(load(&view, [0, 0, 1, 0], [1, 0, 7], 1).unwrap()[0], 2101);
    // 22.4.14: width, height, array size, 1 mip.
    assert_eq!(dimensions(&view, 0), [2, 1, 2, 1]);
    assert_eq!(dimensions(&view, 1), [0, 0, 0, 1]);
    // 22.4.1: no buffer elements in a texture.
    assert_eq!(buffer_elements(&view), 0);
}

#[test]
fn multisample_views_see_the_resource_s_planes_and_are_checked() {
    let resource = multisampled(2, 2, 2, 4, |_, s, _, _| s);
    // A multisampled texture cannot be seen through a plain 2D view (5.2).
    let plain = ShaderResourceView {
        resource: Arc::clone(&resource),
        desc: ShaderResourceViewDesc {
            format: Format::R32Uint,
            dimension: SrvDimension::Texture2D,
            ..Default::default()
        },
    };
    assert!(TextureView::new(&plain).is_err());
    // Slices past the resource's.
    assert!(ms_view(&resource, SrvDimension::Texture2DMsArray, 1, 2).is_err());
    assert!(ms_view(&resource, SrvDimension::Texture2DMsArray, 0, 0).is_err());
    // A texture whose planes are short (one sample's bytes for 4 samples) is refused, not read past.
    let Resource::Texture(texture) = &*resource else {
        panic!("a texture")
    };
    let mut short = texture.clone();
    short.subresources[0] = Arc::from(vec![0u8; 16]);
    let short = Arc::new(Resource::Texture(short));
    assert!(ms_view(&short, SrvDimension::Texture2DMs, 0, 1).is_err());
    // A multisample view of a single-sampled texture has 1 sample (22.4.7: "surfaces with 1 or more samples").
    let single = multisampled(2, 2, 1, 1, |_, _, x, y| 10 * y + x);
    let view = ms_view(&single, SrvDimension::Texture2DMs, 0, 1).unwrap();
    assert_eq!(sample_count(&view), 1);
    assert_eq!(load(&view, [1, 1, 0, 0], [0; 3], 0).unwrap()[0], 11);
    assert_eq!(load(&view, [1, 1, 0, 0], [0; 3], 1).unwrap(), [0, 0, 0, 1]);
    assert_eq!(sample_position(&view, 0), [0.0, 0.0]);
}

#[test]
fn sample_positions_are_the_standard_pattern_of_the_view_s_count() {
    // 19.2.4, in 1/16 pixel: 2 samples (4,4), (-4,-4); 4 samples #1 (6,-2); 8 samples #3 (-3,-5); 16 samples #9
    // (0,-7). 22.4.22: an index past the count gives (0, 0).
    let cases: [(u32, u32, [f32; 2]); 6] = [
        (2, 0, [0.25, 0.25]),
        (2, 1, [-0.25, -0.25]),
        (4, 1, [0.375, -0.125]),
        (8, 3, [-0.1875, -0.3125]),
        (16, 9, [0.0, -0.4375]),
        (16, 16, [0.0, 0.0]),
    ];
    for (count, index, expected) in cases {
        let resource = multisampled(1, 1, 1, count, |_, _, _, _| 0);
        let view = ms_view(&resource, SrvDimension::Texture2DMs, 0, 1).unwrap();
        assert_eq!(sample_count(&view), count);
        assert_eq!(sample_position(&view, index), expected, "{count} samples, #{index}");
    }
    // 32 samples have no standard pattern (19.2.4): zeros.
    let resource = multisampled(1, 1, 1, 32, |_, _, _, _| 0);
    let view = ms_view(&resource, SrvDimension::Texture2DMs, 0, 1).unwrap();
    assert_eq!(sample_count(&view), 32);
    assert_eq!(sample_position(&view, 0), [0.0, 0.0]);
}

// ---- resinfo (22.4.14) ----------------------------------------------------------------------------------------------

#[test]
fn resinfo_reports_each_dimension_as_22_4_14_lists() {
    let one_d = texture(
        shape(ResourceDimension::Texture1D, Format::R8Unorm, [8, 1, 1], 3, 4),
        |_, _, _, _, _| vec![0],
    );
    assert_eq!(
        dimensions(&view_of(&one_d, SrvDimension::Texture1D, Format::R8Unorm), 1),
        [4, 0, 0, 4]
    );
    assert_eq!(
        dimensions(&view_of(&one_d, SrvDimension::Texture1DArray, Format::R8Unorm), 0),
        [8, 3, 0, 4]
    );
    let two_d = texture(
        shape(ResourceDimension::Texture2D, Format::R8Unorm, [8, 4, 1], 12, 4),
        |_, _, _, _, _| vec![0],
    );
    assert_eq!(
        dimensions(&view_of(&two_d, SrvDimension::Texture2D, Format::R8Unorm), 2),
        [2, 1, 0, 4]
    );
    // A level past the view: zero sizes, the mip count still given.
    assert_eq!(
        dimensions(&view_of(&two_d, SrvDimension::Texture2D, Format::R8Unorm), 4),
        [0, 0, 0, 4]
    );
    assert_eq!(
        dimensions(&view_of(&two_d, SrvDimension::Texture2DArray, Format::R8Unorm), 0),
        [8, 4, 12, 4]
    );
    let three_d = texture(
        shape(ResourceDimension::Texture3D, Format::R8Unorm, [8, 4, 2], 1, 4),
        |_, _, _, _, _| vec![0],
    );
    assert_eq!(
        dimensions(&view_of(&three_d, SrvDimension::Texture3D, Format::R8Unorm), 1),
        [4, 2, 1, 4]
    );
    let cube = texture(
        shape(ResourceDimension::Texture2D, Format::R8Unorm, [4, 4, 1], 12, 3),
        |_, _, _, _, _| vec![0],
    );
    assert_eq!(
        dimensions(&view_of(&cube, SrvDimension::TextureCube, Format::R8Unorm), 0),
        [4, 4, 0, 3]
    );
    assert_eq!(
        dimensions(&view_of(&cube, SrvDimension::TextureCubeArray, Format::R8Unorm), 1),
        [2, 2, 2, 3]
    );
}

// ---- arrays ---------------------------------------------------------------------------------------------------------

#[test]
fn the_array_slice_is_rounded_to_nearest_even_and_clamped() {
    // 22.4.15 "Array Resources": 4 slices reading their index.
    let view = view_of(
        &r32f_2d(2, 2, 4, 1, |_, slice, _, _| slice as f32),
        SrvDimension::Texture2DArray,
        Format::R32Float,
    );
    let s = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    for (slice, expected) in [
        (1.5, 2.0),
        (2.5, 2.0),
        (0.5, 0.0),
        (3.49, 3.0),
        (-3.0, 0.0),
        (10.0, 3.0),
        (f32::NAN, 0.0),
    ] {
        assert_eq!(at(&view, &s, [0.5, 0.5, slice, 0.0]), expected, "slice {slice}");
    }
}

// ---- 3D ------------------------------------------------------------------------------------------------------------

#[test]
fn trilinear_filtering_of_a_volume_blends_eight_texels() {
    // 4x4x4 reading x + 4y + 16z. u = 0.3125: 1.25 - 0.5 = 0.75; v = 0.4375: 1.25; w = 0.75: 2.5. Linear data, so
    // the result is 0.75 + 4 * 1.25 + 16 * 2.5 = 45.75 (weights in quarters: every product exact).
    let s = shape(ResourceDimension::Texture3D, Format::R32Float, [4, 4, 4], 1, 1);
    let resource = texture(s, |_, _, x, y, z| ((x + 4 * y + 16 * z) as f32).to_le_bytes().to_vec());
    let view = view_of(&resource, SrvDimension::Texture3D, Format::R32Float);
    let smp = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    assert_eq!(at(&view, &smp, [0.3125, 0.4375, 0.75, 0.0]), 45.75);
    // With 8-bit weights: (0.3, 0.55, 0.8) -> 179/256, 435/256, 691/256 (0.8*4 - 0.5 = 2.7 -> 691.2 -> 691):
    // 179/256 + 4 * 435/256 + 16 * 691/256 = 12975/256 = 50.68359375, to float32 rounding of the 8 products.
    let got = at(&view, &smp, [0.3, 0.55, 0.8, 0.0]);
    assert!((got - 50.683_594).abs() < 1e-5, "{got}");
    // 7.18.11 for a volume (4 texels a side): dX = (0, 0, 1/4) and dY = (0, 1/4, 0) are (0, 0, 1) and (0, 1, 0)
    // texels; reduced to 2D they keep their lengths and right angle: LOD log2 1 = 0. dX = (0, 0, 1) is 4 texels:
    // LOD 2.
    let s = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    assert_eq!(lod(&view, &s, [0.5; 4], [0.0, 0.0, 0.25], [0.0, 0.25, 0.0]), [0.0, 0.0]);
    assert_eq!(lod(&view, &s, [0.5; 4], [0.0, 0.0, 1.0], [0.0, 0.25, 0.0])[1], 2.0);
}

#[test]
fn a_1d_texture_reads_u_and_a_1d_array_its_slice_from_y() {
    // 4 texels per slice reading 10 * slice + x. u = 0.6 -> 2.4 -> texel 2; slice coordinate 1.4 -> 1.
    let s = shape(ResourceDimension::Texture1D, Format::R32Float, [4, 1, 1], 3, 1);
    let resource = texture(s, |_, slice, x, _, _| ((10 * slice + x) as f32).to_le_bytes().to_vec());
    let smp = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    let one_d = view_of(&resource, SrvDimension::Texture1D, Format::R32Float);
    assert_eq!(at(&one_d, &smp, [0.6, 1.4, 9.0, 9.0]), 2.0);
    let array = view_of(&resource, SrvDimension::Texture1DArray, Format::R32Float);
    assert_eq!(at(&array, &smp, [0.6, 1.4, 9.0, 9.0]), 12.0);
    // Linear in u only: 0.6 * 4 - 0.5 = 1.9 -> texels 1, 2 weighing 26/256 and 230/256 (1.9 * 256 = 486.4 ->
    // 486 = 1 + 230/256): 11 * 26/256 + 12 * 230/256 = 11 + 230/256.
    let linear = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    assert_eq!(at(&array, &linear, [0.6, 1.4, 9.0, 9.0]), 11.0 + 230.0 / 256.0);
}

// ---- cubes (7.18.7, 7.18.11, 7.18.12) -------------------------------------------------------------------------------

/// A cube (or `cubes` cubes) of `size`-texel faces reading `100 * cube + 10 * face + 2 * y + x`.
fn cube(size: u32, cubes: u32) -> Arc<Resource> {
    r32f_2d(size, size, 6 * cubes, 1, |_, slice, x, y| {
        (100 * (slice / 6) + 10 * (slice % 6) + 2 * y + x) as f32
    })
}

#[test]
fn a_direction_picks_the_face_of_its_largest_component_ties_going_to_z_then_y() {
    let view = view_of(&cube(1, 1), SrvDimension::TextureCube, Format::R32Float);
    let s = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    let face = |d: [f32; 3]| at(&view, &s, [d[0], d[1], d[2], 0.0]) / 10.0;
    assert_eq!(face([1.0, 0.5, -0.2]), 0.0);
    assert_eq!(face([-1.0, 0.5, 0.2]), 1.0);
    assert_eq!(face([0.3, 0.9, 0.1]), 2.0);
    assert_eq!(face([0.3, -0.9, 0.1]), 3.0);
    assert_eq!(face([0.1, 0.2, 0.3]), 4.0);
    assert_eq!(face([0.1, 0.2, -0.3]), 5.0);
    // Ties: Z before Y before X.
    assert_eq!(face([1.0, 1.0, 1.0]), 4.0);
    assert_eq!(face([-1.0, -1.0, -1.0]), 5.0);
    assert_eq!(face([1.0, 1.0, 0.0]), 2.0);
    assert_eq!(face([1.0, -1.0, 0.0]), 3.0);
    assert_eq!(face([-2.0, 0.0, 2.0]), 4.0);
}

#[test]
fn each_face_lays_out_its_texels_as_d3d_does() {
    // 2x2 faces. +X: u = -z/x * 0.5 + 0.5, v = -y/x * 0.5 + 0.5. (1, 0.5, 0.5) -> (0.25, 0.25) -> texel (0, 0);
    // (1, 0.5, -0.5) -> (0.75, 0.25) -> (1, 0); (1, -0.5, 0.5) -> (0, 1) = 2.
    // -Y: u = x, v = -z: (0.5, -1, 0.5) -> (0.75, 0.25) -> (1, 0) = 31. -Z: u = -x, v = -y: (0.5, 0.5, -1) ->
    // (0.25, 0.25) -> 50. +Y: u = x, v = z: (-0.5, 1, 0.5) -> (0.25, 0.75) -> (0, 1) = 22.
    let view = view_of(&cube(2, 1), SrvDimension::TextureCube, Format::R32Float);
    let s = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    let read = |d: [f32; 3]| at(&view, &s, [d[0], d[1], d[2], 0.0]);
    assert_eq!(read([1.0, 0.5, 0.5]), 0.0);
    assert_eq!(read([1.0, 0.5, -0.5]), 1.0);
    assert_eq!(read([1.0, -0.5, 0.5]), 2.0);
    assert_eq!(read([0.5, -1.0, 0.5]), 31.0);
    assert_eq!(read([0.5, 0.5, -1.0]), 50.0);
    assert_eq!(read([-0.5, 1.0, 0.5]), 22.0);
}

#[test]
fn a_linear_tap_off_a_cube_edge_reads_the_adjacent_face() {
    // 2x2 faces. Direction (1, 0, 0.75) on +X: u = 0.125, v = 0.5. u: 0.25 - 0.5 = -0.25 -> texel -1, weight of
    // texel 0 = 0.75; v: 1 - 0.5 = 0.5 -> texels 0, 1 at 1/2. Texel (-1, j) of +X is past its u = 0 edge, which is
    // +Z's u = 1 edge (both at x = z = 1): +Z texel (1, j) = 41 + 2j. So
    // 41 * 0.125 + 43 * 0.125 + 0 * 0.375 + 2 * 0.375 = 11.25.
    let view = view_of(&cube(2, 1), SrvDimension::TextureCube, Format::R32Float);
    let s = sampler(Filter::MinMagMipLinear, AddressMode::Wrap);
    assert_eq!(at(&view, &s, [1.0, 0.0, 0.75, 0.0]), 11.25);
}

#[test]
fn a_cube_corner_gives_the_missing_texel_s_weight_to_the_other_three() {
    // (1, 0.75, 0.75) on +X: u = v = 0.125 -> texels -1 and 0 on both axes, texel 0 weighing 0.75.
    // (-1, -1): no face has it, weight 1/16. (-1, 0) -> +Z (1, 0) = 41, weight 3/16. (0, -1) is past +X's top edge
    // (y = 1), which is +Y's bottom edge (z = 1... the +Y row v = 1), column x = 1: +Y (1, 1) = 23, weight 3/16.
    // (0, 0) = 0, weight 9/16. Each real texel gains (1/16)/3: 41 * (3/16 + 1/48) + 23 * (3/16 + 1/48) + 0
    // = 64 * 10/48 = 13.333..
    let view = view_of(&cube(2, 1), SrvDimension::TextureCube, Format::R32Float);
    let s = sampler(Filter::MinMagMipLinear, AddressMode::Wrap);
    let got = at(&view, &s, [1.0, 0.75, 0.75, 0.0]);
    assert!((got - 64.0 * 10.0 / 48.0).abs() < 1e-5, "{got}");
    // gather4 synthesizes the corner as the average of the three: (41 + 23 + 0) / 3. Its order: (u0, v1) = (-1, 0)
    // -> 41, (u1, v1) = (0, 0) -> 0, (u1, v0) = (0, -1) -> 23, (u0, v0) missing.
    let out = gather(&view, &s, [1.0, 0.75, 0.75, 0.0], [0, 0], 0, None).unwrap();
    assert_eq!(floats(out)[..3], [41.0, 0.0, 23.0]);
    assert!((floats(out)[3] - 64.0 / 3.0).abs() < 1e-5);
}

#[test]
fn cube_derivatives_are_taken_on_the_major_face() {
    // 8x8 faces; 7.18.11: dX.uv = (|major| dX' - TC' dMajor) / major^2, then * 0.5 * 8.
    let view = view_of(
        &r32f_2d(8, 8, 6, 1, |_, _, _, _| 0.0),
        SrvDimension::TextureCube,
        Format::R32Float,
    );
    let s = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    // (1, 0, 0) with dz = -0.25: sc = -z moves 0.25 -> 0.25 * 4 = 1 texel... scaled: 0.25 * 0.5 * 8 = 1 -> LOD 0.
    let [_, l] = lod(&view, &s, [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -0.25], [0.0; 3]);
    assert_eq!(l, 0.0);
    // (-2, 0.5, 0) on -X (tc = -y = -0.5, |major| 2) moving by (-0.5, -0.25, 0): d tc = 0.25, d|major| = 0.5:
    // (2 * 0.25 - (-0.5)(0.5)) / 4 = 0.1875 -> * 4 = 0.75 texels -> LOD log2 0.75 = -0.415037.
    let [_, l] = lod(&view, &s, [-2.0, 0.5, 0.0, 0.0], [-0.5, -0.25, 0.0], [0.0; 3]);
    assert!((l - 0.75f32.log2()).abs() < 1e-6, "{l}");
}

#[test]
fn a_cube_array_index_selects_six_faces() {
    // 2 cubes of 1x1 faces read 100 * cube + 10 * face. The index rounds to even and clamps.
    let view = view_of(&cube(1, 2), SrvDimension::TextureCubeArray, Format::R32Float);
    let s = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    assert_eq!(at(&view, &s, [1.0, 0.0, 0.0, 1.0]), 100.0);
    assert_eq!(at(&view, &s, [0.0, 0.0, -1.0, 1.4]), 150.0);
    assert_eq!(at(&view, &s, [0.0, 0.0, -1.0, 7.0]), 150.0);
    assert_eq!(at(&view, &s, [0.0, 0.0, -1.0, 0.5]), 50.0);
    // A view from face 6 sees the second cube as its first.
    let desc = ShaderResourceViewDesc {
        format: Format::R32Float,
        dimension: SrvDimension::TextureCubeArray,
        first_array_slice: 6,
        array_size: 1,
        ..Default::default()
    };
    let view = TextureView::new(&ShaderResourceView {
        resource: cube(1, 2),
        desc,
    })
    .unwrap();
    assert_eq!(at(&view, &s, [0.0, 1.0, 0.0, 0.0]), 120.0);
}

// ---- block-compressed textures ---------------------------------------------------------------------------------------

/// A BC4_UNORM block whose texels in columns 0 and 1 read `id / 255` and in columns 2 and 3 read 0 (19.5.9:
/// red_0 = id > red_1 = 0 gives the eight-value block, index 0 = red_0, index 1 = red_1).
fn bc4_block(id: u8) -> Vec<u8> {
    let mut indices = 0u64;
    for texel in 0..16 {
        if texel % 4 >= 2 {
            indices |= 1 << (3 * texel);
        }
    }
    let mut block = vec![id, 0];
    block.extend(&indices.to_le_bytes()[..6]);
    block
}

#[test]
fn sampling_a_bc_texture_reads_the_right_block_at_each_mip() {
    // BC4 12x8, 3 mips: 12x8 (3x2 blocks), 6x4 (2x1 blocks: columns 6, 7 are padding), 3x2 (1 block).
    // Block (bx, by) of mip m holds id = 1 + 16m + 4by + bx.
    let s = shape(ResourceDimension::Texture2D, Format::Bc4Unorm, [12, 8, 1], 1, 3);
    let mut subresources = Vec::new();
    for mip in 0..3u32 {
        let layout = s.mip_layout(mip).unwrap();
        let mut bytes = Vec::new();
        for by in 0..layout.rows as u32 {
            for bx in 0..(layout.row_bytes / 8) as u32 {
                bytes.extend(bc4_block((1 + 16 * mip + 4 * by + bx) as u8));
            }
        }
        subresources.push(Arc::from(bytes));
    }
    let resource = Arc::new(Resource::Texture(Texture::new(s, subresources).unwrap()));
    let view = view_of(&resource, SrvDimension::Texture2D, Format::Bc4Unorm);
    let point = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    let read = |u: f32, v: f32, lod: f32, smp: &SamplerDesc| {
        let out = sample(&view, smp, [u, v, 0.0, 0.0], [0; 3], LevelOfDetail::Explicit(lod), None).unwrap();
        f32::from_bits(out[0])
    };
    // Mip 0 texel (9, 5): block (2, 1), column 1 of the block -> id 1 + 4 + 2 = 7.
    assert_eq!(read(9.5 / 12.0, 5.5 / 8.0, 0.0, &point), 7.0 / 255.0);
    // Mip 1 texel (5, 3): block (1, 0), column 1 -> id 1 + 16 + 1 = 18.
    assert_eq!(read(5.5 / 6.0, 3.5 / 4.0, 1.0, &point), 18.0 / 255.0);
    // Mip 2 texel (1, 1): block (0, 0) -> id 33.
    assert_eq!(read(1.5 / 3.0, 1.5 / 2.0, 2.0, &point), 33.0 / 255.0);
    // Linear at mip 1's right edge (u = 1): texels 5 and 6 -> 6 clamps to 5; the padding columns (which read 0)
    // are never touched: 18/255.
    let linear = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    assert_eq!(read(1.0, 3.5 / 4.0, 1.0, &linear), 18.0 / 255.0);
    // ld reads the same blocks.
    assert_eq!(
        load(&view, [5, 3, 0, 1], [0; 3], 0).unwrap()[0],
        (18.0f32 / 255.0).to_bits()
    );
    assert_eq!(load(&view, [6, 3, 0, 1], [0; 3], 0).unwrap(), [0, 0, 0, ONE]); // padding is out of range
}

// ---- buffers (22.4.1, 22.4.6, 22.4.10, 22.4.12) ---------------------------------------------------------------------

fn buffer_view(bytes: Vec<u8>, desc: ShaderResourceViewDesc) -> Result<TextureView> {
    TextureView::new(&ShaderResourceView {
        resource: Arc::new(Resource::Buffer(Arc::from(bytes))),
        desc,
    })
}

#[test]
fn buffer_views_read_typed_raw_and_structured_elements() {
    let words: Vec<u8> = (0u32..8).flat_map(|w| (w as f32).to_le_bytes()).collect();
    let typed = buffer_view(
        words.clone(),
        ShaderResourceViewDesc {
            format: Format::R32G32Float,
            dimension: SrvDimension::Buffer,
            first_element: 1,
            num_elements: 2,
            ..Default::default()
        },
    )
    .unwrap();
    // Element 0 of the view is buffer element 1: floats 2, 3; element 2 is past the view: (0, 0, 0, 1.0).
    assert_eq!(
        load(&typed, [0, 9, 9, 9], [5; 3], 0).unwrap(),
        [2.0f32.to_bits(), 3.0f32.to_bits(), 0, ONE]
    );
    assert_eq!(load(&typed, [2, 0, 0, 0], [0; 3], 0).unwrap(), [0, 0, 0, ONE]);
    assert_eq!(buffer_elements(&typed), 2);
    let raw = buffer_view(
        words.clone(),
        ShaderResourceViewDesc {
            format: Format::R32Typeless,
            dimension: SrvDimension::BufferEx,
            first_element: 1,
            num_elements: 2,
            raw: true,
            ..Default::default()
        },
    )
    .unwrap();
    // Bytes 4..12 of the buffer: words 1 and 2. Address 5 drops its low bits: word 2. Address 8 is past the view.
    assert_eq!(load_raw(&raw, 0).unwrap(), 1.0f32.to_bits());
    assert_eq!(load_raw(&raw, 5).unwrap(), 2.0f32.to_bits());
    assert_eq!(load_raw(&raw, 8).unwrap(), 0);
    assert_eq!(buffer_elements(&raw), 8);
    let structured = buffer_view(
        words,
        ShaderResourceViewDesc {
            format: Format::Unknown,
            dimension: SrvDimension::Buffer,
            num_elements: 3,
            structure_stride: 8,
            ..Default::default()
        },
    )
    .unwrap();
    // Structure 1 at bytes 8..16: word 3 at offset 4. Structure 3 and offset 8 are past the view / structure.
    assert_eq!(load_structured(&structured, 1, 4).unwrap(), 3.0f32.to_bits());
    assert_eq!(load_structured(&structured, 3, 0).unwrap(), 0);
    assert_eq!(load_structured(&structured, 0, 8).unwrap(), 0);
    assert_eq!(buffer_elements(&structured), 3);
}

// ---- hostile views and inputs ---------------------------------------------------------------------------------------

#[test]
fn views_outside_their_resource_are_refused() {
    let resource = texture(
        shape(ResourceDimension::Texture2D, Format::R8G8B8A8Typeless, [4, 4, 1], 4, 3),
        |_, _, _, _, _| vec![0; 4],
    );
    let try_view = |desc: ShaderResourceViewDesc| {
        TextureView::new(&ShaderResourceView {
            resource: Arc::clone(&resource),
            desc,
        })
    };
    let base = ShaderResourceViewDesc {
        format: Format::R8G8B8A8Unorm,
        dimension: SrvDimension::Texture2DArray,
        array_size: 4,
        ..Default::default()
    };
    assert!(try_view(base).is_ok());
    // The typeless family: UINT is a member, R16G16_UNORM (same size, other layout) and D formats are not.
    assert!(
        try_view(ShaderResourceViewDesc {
            format: Format::R8G8B8A8Uint,
            ..base
        })
        .is_ok()
    );
    assert!(
        try_view(ShaderResourceViewDesc {
            format: Format::R16G16Unorm,
            ..base
        })
        .is_err()
    );
    assert!(
        try_view(ShaderResourceViewDesc {
            format: Format::R8G8B8A8Typeless,
            ..base
        })
        .is_err()
    );
    // Mips and slices.
    assert!(
        try_view(ShaderResourceViewDesc {
            most_detailed_mip: 3,
            ..base
        })
        .is_err()
    );
    assert!(try_view(ShaderResourceViewDesc { mip_levels: 0, ..base }).is_err());
    assert!(
        try_view(ShaderResourceViewDesc {
            most_detailed_mip: 1,
            mip_levels: 3,
            ..base
        })
        .is_err()
    );
    assert!(
        try_view(ShaderResourceViewDesc {
            first_array_slice: 2,
            array_size: 3,
            ..base
        })
        .is_err()
    );
    assert!(
        try_view(ShaderResourceViewDesc {
            first_array_slice: u32::MAX,
            array_size: u32::MAX,
            ..base
        })
        .is_err()
    );
    assert!(try_view(ShaderResourceViewDesc { array_size: 0, ..base }).is_err());
    // Dimensions: a 3D or buffer view of a 2D texture; a cube needs 6 slices.
    assert!(
        try_view(ShaderResourceViewDesc {
            dimension: SrvDimension::Texture3D,
            ..base
        })
        .is_err()
    );
    assert!(
        try_view(ShaderResourceViewDesc {
            dimension: SrvDimension::Buffer,
            ..base
        })
        .is_err()
    );
    assert!(
        try_view(ShaderResourceViewDesc {
            dimension: SrvDimension::TextureCube,
            ..base
        })
        .is_err()
    );
    assert!(
        try_view(ShaderResourceViewDesc {
            dimension: SrvDimension::TextureCubeArray,
            array_size: u32::MAX,
            ..base
        })
        .is_err()
    );
    // A typed resource is seen only as itself; a depth format never.
    let typed = r32f_2d(2, 2, 1, 1, |_, _, _, _| 0.0);
    let desc = ShaderResourceViewDesc {
        format: Format::R32Uint,
        dimension: SrvDimension::Texture2D,
        ..Default::default()
    };
    assert!(
        TextureView::new(&ShaderResourceView {
            resource: Arc::clone(&typed),
            desc
        })
        .is_err()
    );
    let depth = ShaderResourceViewDesc {
        format: Format::D32Float,
        ..desc
    };
    let d32 = texture(
        shape(ResourceDimension::Texture2D, Format::R32Typeless, [2, 2, 1], 1, 1),
        |_, _, _, _, _| vec![0; 4],
    );
    assert!(
        TextureView::new(&ShaderResourceView {
            resource: d32,
            desc: depth
        })
        .is_err()
    );
}

#[test]
fn a_texture_whose_data_is_shorter_than_its_shape_is_refused() {
    // Texture's fields are public, so a view checks the bytes again.
    let s = shape(ResourceDimension::Texture2D, Format::R32Float, [4, 4, 1], 1, 1);
    let resource = Arc::new(Resource::Texture(Texture {
        shape: s,
        subresources: vec![Arc::from(vec![0u8; 60])],
    }));
    let desc = ShaderResourceViewDesc {
        format: Format::R32Float,
        dimension: SrvDimension::Texture2D,
        ..Default::default()
    };
    assert!(TextureView::new(&ShaderResourceView { resource, desc }).is_err());
    // Nor one of a shape `Texture::new` would refuse: zero width, more mips than the sides allow.
    for bad in [TextureShape { width: 0, ..s }, TextureShape { mip_levels: 9, ..s }] {
        let resource = Arc::new(Resource::Texture(Texture {
            shape: bad,
            subresources: vec![Arc::from(vec![0u8; 64]); 9],
        }));
        assert!(TextureView::new(&ShaderResourceView { resource, desc }).is_err());
    }
    // Buffer views past the buffer, including by overflow.
    let desc = ShaderResourceViewDesc {
        format: Format::R32Float,
        dimension: SrvDimension::Buffer,
        first_element: u32::MAX,
        num_elements: u32::MAX,
        ..Default::default()
    };
    assert!(buffer_view(vec![0; 16], desc).is_err());
    assert!(
        buffer_view(
            vec![0; 16],
            ShaderResourceViewDesc {
                first_element: 3,
                num_elements: 2,
                ..desc
            }
        )
        .is_err()
    );
}

#[test]
fn instructions_refuse_views_they_cannot_read() {
    let uint = texture(
        shape(ResourceDimension::Texture2D, Format::R32Uint, [2, 2, 1], 6, 1),
        |_, _, _, _, _| vec![0; 4],
    );
    let s = sampler(Filter::MinMagMipPoint, AddressMode::Clamp);
    // Integer formats cannot be sampled (19.1.4).
    let view = view_of(&uint, SrvDimension::Texture2D, Format::R32Uint);
    assert!(sample(&view, &s, [0.5; 4], [0; 3], LevelOfDetail::Zero, None).is_err());
    // ld cannot read a cube (22.4.6).
    let cube_view = view_of(&uint, SrvDimension::TextureCube, Format::R32Uint);
    assert!(load(&cube_view, [0; 4], [0; 3], 0).is_err());
    // sample cannot read a buffer.
    let buffer = buffer_view(
        vec![0; 16],
        ShaderResourceViewDesc {
            format: Format::R32Float,
            dimension: SrvDimension::Buffer,
            num_elements: 4,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(sample(&buffer, &s, [0.5; 4], [0; 3], LevelOfDetail::Zero, None).is_err());
    assert!(gather(&buffer, &s, [0.5; 4], [0; 2], 0, None).is_err());
    assert!(load_raw(&buffer, 0).is_err());
    assert_eq!(dimensions(&buffer, 0), [0; 4]);
}

#[test]
fn hostile_coordinates_and_states_never_panic() {
    let values = [
        0.0,
        -0.0,
        0.5,
        1.0,
        -1.0,
        1e-40,
        3.4e38,
        -3.4e38,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    let views = [
        view_of(&mip_ladder(), SrvDimension::Texture2D, Format::R32Float),
        view_of(&cube(2, 2), SrvDimension::TextureCubeArray, Format::R32Float),
        view_of(&cube(2, 2), SrvDimension::Texture2DArray, Format::R32Float),
        view_of(
            &texture(
                shape(ResourceDimension::Texture3D, Format::R8Unorm, [4, 2, 2], 1, 2),
                |_, _, _, _, _| vec![9],
            ),
            SrvDimension::Texture3D,
            Format::R8Unorm,
        ),
        view_of(
            &texture(
                shape(ResourceDimension::Texture1D, Format::R8Unorm, [4, 1, 1], 3, 3),
                |_, _, _, _, _| vec![9],
            ),
            SrvDimension::Texture1DArray,
            Format::R8Unorm,
        ),
    ];
    let filters = [
        Filter::MinMagMipPoint,
        Filter::MinMagMipLinear,
        Filter::Anisotropic,
        Filter::MaximumMinMagMipLinear,
    ];
    for view in &views {
        for filter in filters {
            for &a in &values {
                for &b in &values {
                    let mut s = sampler(filter, AddressMode::Mirror);
                    s.max_anisotropy = 16;
                    s.mip_lod_bias = b;
                    let coords = [a, b, a, b];
                    let lods = [
                        LevelOfDetail::Gradient {
                            ddx: [a, b, a],
                            ddy: [b, a, b],
                        },
                        LevelOfDetail::Explicit(a),
                        LevelOfDetail::Bias {
                            ddx: [a; 3],
                            ddy: [b; 3],
                            bias: a,
                        },
                    ];
                    for l in lods {
                        assert!(sample(view, &s, coords, [-8, 7, 3], l, None).is_ok());
                        assert!(sample(view, &s, coords, [0; 3], l, Some(a)).is_ok());
                    }
                    let _ = gather(view, &s, coords, [i32::MIN, i32::MAX], 7, Some(b));
                    let _ = lod(view, &s, coords, [a; 3], [b; 3]);
                    let _ = load(view, [a as i32, b as i32, i32::MAX, i32::MIN], [i32::MIN; 3], u32::MAX);
                }
            }
        }
    }
}

// ---- the LOD variants (crate::draw::variants)

#[test]
fn the_piecewise_linear_log2_is_exact_at_powers_of_two_and_linear_between() {
    // x = M 2^E gives (E - 1) + M: 8 = 1 x 2^3 -> 3; 9 = 1.125 x 2^3 -> 3.125; 0.75 = 1.5 x 2^-1 -> -0.5 (log2 0.75 =
    // -0.415); 1 -> 0; 0 has exponent field 0 -> -127 + 1 - 1 = -127
    assert_eq!(lod::linear_log2(8.0), 3.0);
    assert_eq!(lod::linear_log2(9.0), 3.125);
    assert_eq!(lod::linear_log2(0.75), -0.5);
    assert_eq!(lod::linear_log2(1.0), 0.0);
    assert_eq!(lod::linear_log2(0.0), -127.0);
    assert!(lod::linear_log2(f32::NAN).is_nan());
}

#[test]
fn the_lod_variants_take_the_longer_untransformed_vector_and_the_linear_log2_of_its_square() {
    let variants = |lod_max_length, lod_log2_linear| FilterVariants {
        lod_max_length,
        lod_log2_linear,
        filter_8bit: false,
    };
    // a 3-texel footprint: the spec's log2 3 = 1.58496; the linear log2 of 9 halved: (3 + 1.125 - 1) / 2 = 1.5625,
    // llvmpipe's LOD as fixtures/texture/README.md fitted it (1.5576, within its 1/256 steps)
    let three = lod::footprint_under([3.0, 0.0], [0.0, 0.0], None, variants(false, true));
    assert_eq!(three.lod, 1.5625);
    let spec = lod::footprint_under([3.0, 0.0], [0.0, 0.0], None, variants(false, false));
    assert!((spec.lod - 3f32.log2()).abs() < 1e-6, "{}", spec.lod);
    // skewed dX = (1, 1), dY = (1, 0) (skewed_derivatives_take_the_lod_of_their_ellipse): the ellipse's longer axis
    // 1.618034 gives 0.694242; the longer vector as it is, sqrt 2, gives log2 sqrt 2 = 0.5, and the linear log2 of
    // its square 2 = 1 x 2^1 gives (1 - 1 + 1) / 2 = 0.5 too
    let skewed = |v| lod::footprint_under([1.0, 1.0], [1.0, 0.0], None, v).lod;
    assert!((skewed(variants(false, false)) - 0.694_242).abs() < 1e-5);
    assert!((skewed(variants(true, false)) - 0.5).abs() < 1e-6);
    assert_eq!(skewed(variants(true, true)), 0.5);
    // anisotropic footprints keep 7.18.11's rule under any variant
    let aniso = lod::footprint_under([1.0, 1.0], [1.0, 0.0], Some(16), variants(true, true));
    assert_eq!(aniso, lod::footprint([1.0, 1.0], [1.0, 0.0], Some(16)));
}

#[test]
fn mips_chosen_from_a_float_lod_weigh_by_its_fraction_unquantized() {
    // LOD 1.3 (float32 1.29999995): levels 1 and 2, level 2 weighing 1.3 - 1 = 0.29999995 (7.18.10's 8.8 fixed point
    // would give 333 / 256 -> 77 / 256 = 0.30078)
    let float = lod::select_mips_float(1.3, true, 4);
    assert_eq!((float.floor, float.ceil), (1, 2));
    assert_eq!(float.ceil_weight, 1.3f32 - 1.0);
    assert_eq!(lod::select_mips(1.3, true, 4).ceil_weight, 77.0 / 256.0);
    // POINT: 1.49 -> 1, 1.5 -> 2; past the last level both clamp, weight 0
    assert_eq!(lod::select_mips_float(1.49, false, 4).floor, 1);
    assert_eq!(lod::select_mips_float(1.5, false, 4).floor, 2);
    let past = lod::select_mips_float(3.5, true, 4);
    assert_eq!((past.floor, past.ceil, past.ceil_weight), (3, 3, 0.0));
}

#[test]
fn an_8bit_texture_filtered_in_8bit_integers_rounds_each_lerp_to_a_code() {
    // a 2x1 R8G8B8A8_UNORM texture, red 10 and 200; bilinear at u = 0.375: 0.375 x 2 - 0.5 = 0.25, weight 64/256 of
    // the right texel. In float32 (7.18.8) red is (10 x 0.75 + 200 x 0.25) / 255 = 57.5 / 255; in 8-bit integers
    // 10 + floor((64 x 190 + 128) / 256) = 10 + floor(48.0) = 58. From the right: at u = 0.625 (weight 192 of 200)
    // 10 + floor((192 x 190 + 128) / 256) = 10 + floor(143.0) = 153; float32 152.5.
    let s = shape(ResourceDimension::Texture2D, Format::R8G8B8A8Unorm, [2, 1, 1], 1, 1);
    let resource = texture(s, |_, _, x, _, _| vec![if x == 0 { 10 } else { 200 }, 0, 0, 255]);
    let mut view = view_of(&resource, SrvDimension::Texture2D, Format::R8G8B8A8Unorm);
    let linear = sampler(Filter::MinMagMipLinear, AddressMode::Clamp);
    assert_eq!(at(&view, &linear, [0.375, 0.5, 0.0, 0.0]), 57.5 / 255.0);
    view.set_variants(FilterVariants {
        filter_8bit: true,
        ..FilterVariants::default()
    });
    assert_eq!(at(&view, &linear, [0.375, 0.5, 0.0, 0.0]), 58.0 / 255.0);
    assert_eq!(at(&view, &linear, [0.625, 0.5, 0.0, 0.0]), 153.0 / 255.0);
    // a float texture keeps the float filter under the variant
    let mut ramp = ramp4();
    ramp.set_variants(FilterVariants {
        filter_8bit: true,
        ..FilterVariants::default()
    });
    assert_eq!(at(&ramp, &linear, [0.375, 0.5, 0.0, 0.0]), 1.0);
}
