//! Resources and sampling for shader programs: what `sample*`, `gather4*`, `ld*`, `resinfo`, `bufinfo`,
//! `sampleinfo`, `samplepos` and `lod` return for one lane, by the D3D11.3 functional specification. A
//! [`TextureView`] is resolved once per draw from a shader resource view; the functions here are then called per lane
//! by the interpreter, which applies the resource swizzle, the destination mask and the `resinfo` return type.
//!
//! The rules, each from the section cited:
//!
//! - **Views (5.2).** A view sees its own mip range (most detailed mip, count) and slice range; every level number,
//!   array index, size and out-of-range test is the view's, not the resource's. [`TextureView::new`] refuses a view
//!   whose dimension does not fit the resource, whose format is not the resource's or a member of its `_TYPELESS`
//!   family (19.1.4), is a depth format, or whose mips, slices or elements lie outside.
//! - **Coordinates (7.18.5–7.18.8).** Each coordinate is range-reduced by its address mode (7.18.6: `frac` for WRAP,
//!   `signedFrac(u/2)*2` for MIRROR, a clamp to [-10, 10] otherwise), scaled by the level's size (minus 0.5 for a
//!   linear filter), converted to fixed point with 8 fractional bits, round to nearest even (3.2.4.1's reference
//!   conversion), offset by the instruction's immediate offset in texels of that level, and addressed (7.18.9). A
//!   linear filter's weights are the 8-bit fraction `f` and `1 - f` per axis, exact as floats; their products are
//!   exact too. Texels are combined in float32 in the spec's order (`(u0,v0), (u0,v1), (u1,v0), (u1,v1)`, each
//!   texel times its weight, summed left to right); denormals are flushed on the way in and out (3.1, 7.18.16.2); a
//!   texel of weight 0 is skipped (7.18.16.2 allows it; NaNs of weight 0 do not spread). A result that is one texel
//!   of weight 1 is that texel's words unchanged (7.18.16.3).
//! - **Arrays (22.4.15).** The slice coordinate is rounded to nearest even and clamped to the view's slices.
//! - **Address modes and border (7.18.9, 7.18.9.1).** WRAP, MIRROR, CLAMP, MIRROR_ONCE on integer texel indices as
//!   the pseudocode writes them; BORDER reads the border colour when any axis is outside. The border colour keeps only
//!   the components the format has (the rest read as 19.1.3.3's defaults), each clamped to the format's range; it is
//!   linear (not re-encoded for SRGB). Filtering is float32 here, so that clamp is the only snap 7.18.9.1 asks.
//! - **LOD (7.18.11).** `sample`/`sample_b`/`sample_c`/`lod` take the interpreter's coarse derivatives,
//!   `sample_d` the program's; they are scaled to texels of the view's most detailed level (cubes: transformed into
//!   the major face, then half the face size), a volume texture's reduced to 2D by the reference rasterizer's
//!   transform, and replaced by the principal axes of their ellipse (the spec's "ideal transformation", skipped in
//!   its listed degenerate cases). Isotropic LOD is `log2` of the longer axis. Anisotropic LOD (ANISOTROPIC filters on
//!   2D views only, as `ComputeAnisotropicLOD` says; 1D, 3D and cubes filter trilinearly, which 7.18.13 allows) is
//!   the pseudocode's, without the old clamp of the minor axis to 1. `sample_l` gives the LOD, `sample_c_lz` LOD 0;
//!   both are isotropic. Then `+ MipLODBias + bias`, `max(MinLOD, min(MaxLOD, ·))`; magnification is LOD <= 0 after
//!   the clamp.
//! - **Mip selection (7.18.10).** The LOD in 8.8 fixed point (nearest even); POINT: `floor(lod + 0.5)`; LINEAR:
//!   `floor(lod)` and the next level weighed by the 8-bit fraction, `ceil * w + floor * (1 - w)`; levels clamped to
//!   the view's.
//! - **Anisotropic footprint (our choice; 7.18.11 leaves the filter open).** `N = ceil(ratio)` taps (ratio clamped
//!   by `MaxAnisotropy`, 1..16), evenly spaced along the footprint's major axis — tap i at `(i + 0.5)/N - 1/2` of the
//!   axis vector from the centre, so the taps tile the whole pixel footprint —, each a bilinear (trilinear with the
//!   mip blend) tap at the minor axis's LOD, range-reduced and addressed on its own (7.18.6), averaged with equal
//!   weights (the sum divided by N, per level, then the levels blended). This is footprint assembly, the shape of
//!   filter the spec's outputs (ratio, line direction, minor-axis LOD) are made for, and the form our brief
//!   attributes to WARP ("N linear taps along the major axis"). WARP's tap count, spacing and weights are not
//!   published, so under anisotropy (ratio > 1) our results are an approximation of WARP's, not a match; with a
//!   ratio of 1 (isotropic footprints, `sample_l`, `sample_c_lz`) the filter is exactly trilinear.
//! - **Cubes (7.18.7, 7.18.12).** The face of the largest component (ties to Z, then Y, then X), D3D's face layout;
//!   address modes do not apply. A linear tap past an edge reads the adjacent face's edge texel; at a corner the
//!   missing texel's weight goes in equal thirds to the other three (the reference behaviour). A point tap is clamped
//!   to its face.
//! - **Comparison (22.4.19, 7.18.15).** The reference is quantized to the view format's red component (written and
//!   read back: clamped and rounded for UNORM, rounded to float16 for 16-bit floats, unchanged for float32); each
//!   texel's red (the border's for border taps) is compared, `reference {func} texel`, by 3.1's rules with denormals
//!   flushed; the 1.0 / 0.0 results are filtered as any texel and returned in all four components.
//! - **Min/max reduction (5.9.4.5.6).** The same texels as the filter, the per-component minimum or maximum of those
//!   of non-zero weight, across levels and anisotropic taps.
//! - **Gather (22.4.2–22.4.5).** The bilinear footprint of the view's most detailed level, texels in the order
//!   (u0,v1), (u1,v1), (u1,v0), (u0,v0); address modes apply; a programmable offset keeps its low 6 bits, signed. A
//!   cube corner's missing texel is the average of the other three (after comparison, for `gather4_c`).
//! - **Return values (7.18.14, 19.1.3.3).** Shader words by the view format through [`crate::format::TexelCodec`]:
//!   float bits for UNORM/SNORM/SRGB/FLOAT (SRGB decoded to linear before filtering), integers for UINT/SINT,
//!   defaults for missing components. Filtering (any `sample*`) an integer format is an error: the format list
//!   (19.1.4) gives UINT/SINT formats no sampling; `ld` and `gather4` read them.
//! - **Loads (22.4.6, 22.4.7, 22.4.10, 22.4.12).** `ld` addresses are unsigned: an address, array index or mip past
//!   the view returns 0 in the format's components and the defaults in the others; offsets apply to x, y, z but not
//!   the array index. Multisample views (`ld2dms`, 22.4.7, 7.17.1): sample `s` of a texel is read from the
//!   subresource's plane `s` ([`crate::api::resource`]'s layout); the address's fourth component is ignored (no mip),
//!   the third is the array index of a `Texture2DMSArray` view and ignored otherwise; a sample index at or past the
//!   count returns the out-of-range value too (22.4.7 leaves it undefined "but cannot return data outside of the
//!   address space", and announces it will behave as the other out-of-range loads). Raw reads take the byte address with its 2 low bits dropped (22.3.47: addresses are multiples of 4);
//!   a word past the view reads 0.
//! - **Queries (22.4.1, 22.4.14, 22.4.21, 22.4.22, 22.5.6).** `resinfo` per dimension (a cube array's third value,
//!   undefined in D3D11, is its cube count, as later versions require); a level past the view gives zero sizes and
//!   the mip count; a multisample view has 1 level. `sampleinfo` gives the view's sample count (1 for a view of a
//!   single-sampled texture). `samplepos` gives the standard patterns (19.2.4, [`crate::api::multisample`]) for 1,
//!   2, 4, 8 and 16 samples, and (0, 0) past the count (22.4.22) or for 32 samples, which have none. `lod` gives the
//!   clamped LOD (sampler clamps, then the view's levels) and the unclamped one (with the sampler's bias).
//!
//! An unbound slot (7.18.17: zeros) is the interpreter's to handle: these functions take a view.
//!
//! Tests: `tests.rs` here checks each rule on hand-computed cases (the arithmetic in their comments);
//! `tests/texture_reference.rs` replays 103 reference renders of 2D sampling from a real D3D11 (Wine on llvmpipe,
//! `fixtures/texture/`) within tolerances derived there from llvmpipe's own arithmetic (8-bit filtering, an
//! approximate log2 for the LOD). That reference cannot show anisotropic filtering (llvmpipe runs its own filter)
//! nor min/max reduction (wined3d ignores it); both are tested by hand only.

mod address;
mod cube;
mod filter;
mod lod;
mod view;

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)] // tests build textures and expected values from small constants
mod tests;

pub use lod::{FilterVariants, LevelOfDetail};

pub use view::{TextureDecoding, TextureView};

use crate::api::enums::SrvDimension;
use crate::api::multisample;
use crate::api::resource::SamplerDesc;
use crate::{Error, Result};
use view::{BufferKind, Content};

/// One lane's `sample*`. `coords` is the address operand (x, y, z, w) as the view's dimension reads it: 1D (u),
/// 1D array (u, slice), 2D (u, v), 2D array (u, v, slice), 3D (u, v, w), cube (a direction), cube array
/// (direction, cube index). `offset` is the immediate texel offset (`aoffimmi`; ignored for cubes, where it is
/// undefined). `reference` is the comparison value of `sample_c`/`sample_c_lz`. Returns the four shader words.
pub fn sample(
    view: &TextureView,
    sampler: &SamplerDesc,
    coords: [f32; 4],
    offset: [i32; 3],
    lod: LevelOfDetail,
    reference: Option<f32>,
) -> Result<[u32; 4]> {
    filter::sample(view, sampler, coords, offset, &lod, reference)
}

/// One lane's `gather4` (+`_c`, `_po`, `_po_c`): component `channel` (0..3 = x..w after the format's defaults) of
/// the four texels of the bilinear footprint of the view's most detailed level, in 22.4.2's order, or with a
/// `reference` their comparisons (1.0 / 0.0). `offset` is the immediate or programmable offset (its low 6 bits).
pub fn gather(
    view: &TextureView,
    sampler: &SamplerDesc,
    coords: [f32; 4],
    offset: [i32; 2],
    channel: u8,
    reference: Option<f32>,
) -> Result<[u32; 4]> {
    filter::gather(view, sampler, coords, offset, channel, reference)
}

/// One lane's `ld` / `ld2dms`: the integer address as the instruction gives it (x, y, z-or-slice, mip), the
/// immediate offset and, for multisample views, the sample index (ignored for other views). Out-of-range addresses,
/// array indices, mips and sample indices return 0 (and the defaults for missing components; 22.4.6, 22.4.7). Cubes
/// cannot be loaded (22.4.6), nor raw or structured buffers with `ld`.
pub fn load(view: &TextureView, address: [i32; 4], offset: [i32; 3], sample: u32) -> Result<[u32; 4]> {
    let [a0, a1, a2, a3] = address.map(|a| a as u32);
    let [o0, o1, o2] = offset.map(|o| o as u32);
    let data = match &view.content {
        Content::Buffer(buffer) => {
            let BufferKind::Typed(codec) = buffer.kind else {
                return Err(Error::new(
                    "texture",
                    "ld cannot read a raw or structured buffer view (ld_raw / ld_structured do)",
                ));
            };
            let info = view.format.info();
            if a0 >= buffer.elements {
                return Ok(view::zero_texel(info.channels, info.shader_type));
            }
            let start = buffer
                .first_byte
                .saturating_add(u64::from(a0).saturating_mul(buffer.element_bytes));
            let bytes = usize::try_from(start)
                .ok()
                .and_then(|s| buffer.data.get(s..))
                .ok_or_else(|| Error::new("texture", format!("buffer element {a0} is past the buffer")))?;
            return codec.decode(bytes);
        }
        Content::Texture(data) => data,
    };
    let zero = data.zero_texel();
    // (x, y, z) within the level, the view slice, the view mip, the sample.
    let (texel, slice, level, sample) = match view.dimension {
        SrvDimension::Texture1D => ([a0.wrapping_add(o0), 0, 0], 0, a3, 0),
        SrvDimension::Texture1DArray => ([a0.wrapping_add(o0), 0, 0], a1, a3, 0),
        SrvDimension::Texture2D => ([a0.wrapping_add(o0), a1.wrapping_add(o1), 0], 0, a3, 0),
        SrvDimension::Texture2DArray => ([a0.wrapping_add(o0), a1.wrapping_add(o1), 0], a2, a3, 0),
        SrvDimension::Texture3D => (
            [a0.wrapping_add(o0), a1.wrapping_add(o1), a2.wrapping_add(o2)],
            0,
            a3,
            0,
        ),
        SrvDimension::Texture2DMs | SrvDimension::Texture2DMsArray => {
            // 22.4.7: "srcAddress.b (post-swizzle) is ignored for Texture2Ds", is the array index of arrays (no
            // offset along it); "srcAddress.a (post-swizzle) is always ignored".
            if sample >= data.sample_count {
                return Ok(zero);
            }
            let slice = if view.dimension == SrvDimension::Texture2DMsArray {
                a2
            } else {
                0
            };
            ([a0.wrapping_add(o0), a1.wrapping_add(o1), 0], slice, 0, sample)
        }
        dimension => {
            return Err(Error::new(
                "texture",
                format!("ld cannot read a {dimension} view (22.4.6)"),
            ));
        }
    };
    let Some(size) = data.size(level) else {
        return Ok(zero);
    };
    if texel[0] >= size[0] || texel[1] >= size[1] || texel[2] >= size[2] || slice >= data.slices {
        return Ok(zero);
    }
    data.sample_texel(level, slice, texel, sample, &mut view::BlockCache::new())
}

/// `resinfo`'s integer part for view mip `level`: (width, height, depth-or-array-size, mip count) as 22.4.14 gives
/// them per dimension — 1D (w, 0, 0), 1D array (w, slices, 0), 2D and cube (w, h, 0), 2D array (w, h, slices),
/// 3D (w, h, d), cube array (w, h, cubes), multisample as 2D / 2D array with 1 level. A level past the view gives
/// (0, 0, 0, mips). Buffers (not `resinfo`'s to query) give zeros. The interpreter applies the return type.
pub fn dimensions(view: &TextureView, level: u32) -> [u32; 4] {
    let Content::Texture(data) = &view.content else {
        return [0; 4];
    };
    let mips = data.mip_count();
    let Some([w, h, d]) = data.size(level) else {
        return [0, 0, 0, mips];
    };
    let slices = data.slices;
    let [x, y, z] = match view.dimension {
        SrvDimension::Texture1D => [w, 0, 0],
        SrvDimension::Texture1DArray => [w, slices, 0],
        SrvDimension::Texture2D | SrvDimension::Texture2DMs | SrvDimension::TextureCube => [w, h, 0],
        SrvDimension::Texture2DArray | SrvDimension::Texture2DMsArray => [w, h, slices],
        SrvDimension::Texture3D => [w, h, d],
        SrvDimension::TextureCubeArray => [w, h, slices / 6],
        _ => [0, 0, 0],
    };
    [x, y, z, mips]
}

/// `bufinfo` (22.4.1): elements in a typed buffer view, bytes in a raw one, structures in a structured one; 0 for
/// textures.
pub fn buffer_elements(view: &TextureView) -> u32 {
    match &view.content {
        Content::Buffer(buffer) => match buffer.kind {
            BufferKind::Raw => buffer.elements.saturating_mul(4),
            BufferKind::Typed(_) | BufferKind::Structured => buffer.elements,
        },
        Content::Texture(_) => 0,
    }
}

/// `sampleinfo` (22.4.21): the samples per texel of the view's resource ("the number of samples for the given
/// resource"; 1 for a texture that is not multisampled; 0 for buffers).
pub fn sample_count(view: &TextureView) -> u32 {
    match &view.content {
        Content::Texture(data) => data.sample_count,
        Content::Buffer(_) => 0,
    }
}

/// `samplepos` (22.4.22): sample `index`'s position relative to the pixel centre, in pixels, by the standard pattern
/// (19.2.4, [`multisample::standard_sample_position`]) of the view's sample count; (0, 0) for an index past the count
/// ("If sampleIndex is out of bounds a zero vector is returned"), a buffer, or a count with no standard pattern (32).
pub fn sample_position(view: &TextureView, index: u32) -> [f32; 2] {
    multisample::standard_sample_position(sample_count(view), index).unwrap_or([0.0; 2])
}

/// The `lod` instruction (22.5.6): (clamped LOD, unclamped LOD) for the address and its derivatives. The unclamped
/// LOD is the computed one plus the sampler's `MipLODBias`; the clamped one is that after `MinLOD`/`MaxLOD` and then
/// clamped to the view's levels `[0, mips - 1]`, the LOD the sample uses. Views `sample` cannot read give (0, 0).
pub fn lod(view: &TextureView, sampler: &SamplerDesc, coords: [f32; 4], ddx: [f32; 3], ddy: [f32; 3]) -> [f32; 2] {
    let Content::Texture(data) = &view.content else {
        return [0.0; 2];
    };
    let Ok(location) = filter::locate(view, data, coords, "lod") else {
        return [0.0; 2];
    };
    let anisotropic = (sampler.filter.anisotropic()
        && matches!(view.dimension, SrvDimension::Texture2D | SrvDimension::Texture2DArray))
    .then_some(sampler.max_anisotropy);
    let (footprint, _) = filter::resolve_lod(
        data,
        &location,
        &LevelOfDetail::Implicit { ddx, ddy },
        anisotropic,
        view.variants,
    );
    let unclamped = footprint.lod + sampler.mip_lod_bias;
    let clamped = lod::clamp_lod(sampler, footprint.lod, 0.0);
    let last = data.mip_count().saturating_sub(1) as f32;
    [clamped.max(0.0).min(last), unclamped]
}

/// `ld_raw` (22.4.10) on a raw or structured buffer view: the little-endian 32-bit word at `byte_address` from the
/// view's start (its 2 low bits dropped); 0 for a word past the view.
pub fn load_raw(view: &TextureView, byte_address: u32) -> Result<u32> {
    let Content::Buffer(buffer) = &view.content else {
        return Err(Error::new(
            "texture",
            format!("ld_raw cannot read a {} view", view.dimension),
        ));
    };
    if matches!(buffer.kind, BufferKind::Typed(_)) {
        return Err(Error::new(
            "texture",
            format!("ld_raw cannot read a typed buffer view ({})", view.format),
        ));
    }
    let address = u64::from(byte_address & !3);
    let view_bytes = u64::from(buffer.elements).saturating_mul(buffer.element_bytes);
    Ok(read_word(buffer, address, view_bytes))
}

/// `ld_structured` (22.4.12) on a structured (or raw) buffer view: the word at `byte_offset` (2 low bits dropped) in
/// structure `index`; 0 for a structure past the view or an offset past the structure (where the spec leaves the
/// result undefined). Added to the interpreter contract so that `index * stride + offset` cannot wrap into range.
pub fn load_structured(view: &TextureView, index: u32, byte_offset: u32) -> Result<u32> {
    let Content::Buffer(buffer) = &view.content else {
        return Err(Error::new(
            "texture",
            format!("ld_structured cannot read a {} view", view.dimension),
        ));
    };
    if matches!(buffer.kind, BufferKind::Typed(_)) {
        return Err(Error::new(
            "texture",
            format!("ld_structured cannot read a typed buffer view ({})", view.format),
        ));
    }
    let offset = u64::from(byte_offset & !3);
    if index >= buffer.elements || offset.saturating_add(4) > buffer.element_bytes {
        return Ok(0);
    }
    let address = u64::from(index)
        .saturating_mul(buffer.element_bytes)
        .saturating_add(offset);
    let view_bytes = u64::from(buffer.elements).saturating_mul(buffer.element_bytes);
    Ok(read_word(buffer, address, view_bytes))
}

/// The word at `address` bytes into the view, or 0 if any of its bytes is past the view's `view_bytes`.
fn read_word(buffer: &view::BufferView, address: u64, view_bytes: u64) -> u32 {
    if address.saturating_add(4) > view_bytes {
        return 0;
    }
    let start = buffer.first_byte.saturating_add(address);
    let word = usize::try_from(start)
        .ok()
        .and_then(|s| buffer.data.get(s..s.checked_add(4)?))
        .and_then(|b| <[u8; 4]>::try_from(b).ok());
    word.map_or(0, u32::from_le_bytes)
}
