//! What a draw reads and writes, and how it is bound: buffers and textures with every subresource (5.1, 5.3), shader
//! resource, render target and depth-stencil views (5.2), and sampler state (7.18.3).
//!
//! Texture memory is laid out as D3D11 numbers subresources (5.3.x "Subresource indexing"): subresource
//! `mip + array_slice * mip_levels`, each holding its mip level's texels row by row, rows packed with no padding, the
//! depth slices of a 3D texture one after another. A block-compressed mip holds whole 4x4 blocks, rows of blocks
//! packed. D3D11 gives a multisampled resource no memory layout (5.3.5, 19.2: only views and resolves reach its
//! samples); Iridia stores its one subresource per slice as `sample_count` planes, sample 0's first, each a
//! single-sampled image of the mip ([`MipLayout::plane_bytes`]), so that sample `s` of texel `(x, y)` is at
//! `s * plane_bytes + y * row_bytes + x * texel_bytes`. Resource contents are shared (`Arc`) so that views, captures and draws can hold them without copies.

use crate::api::enums::{
    AddressMode, ComparisonFunc, DsvDimension, Filter, ResourceDimension, RtvDimension, SrvDimension, UavDimension,
};
use crate::format::Format;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most mip levels a D3D11 texture has (a 16384-texel side has 15; 21 "System Limits" caps sides at 16384).
pub const MAX_MIP_LEVELS: u32 = 15;

/// The shape of a texture: what D3D11's `D3D11_TEXTURE{1D,2D,3D}_DESC` give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextureShape {
    /// 1D, 2D (arrays and cubes included) or 3D.
    pub dimension: ResourceDimension,
    /// The format the resource was created with (may be `_TYPELESS`).
    pub format: Format,
    /// Width of mip 0 in texels.
    pub width: u32,
    /// Height of mip 0 in texels (1 for 1D).
    pub height: u32,
    /// Depth of mip 0 in texels (1 but for 3D).
    pub depth: u32,
    /// Array slices (1 for 3D; 6 per cube for cubes).
    pub array_size: u32,
    /// Mip levels, at least 1.
    pub mip_levels: u32,
    /// Samples per texel (1 without multisampling).
    pub sample_count: u32,
}

impl TextureShape {
    /// The size in texels (width, height, depth) of mip `level`: each halves, rounding down, to at least 1 (5.3.x).
    pub fn mip_size(&self, level: u32) -> [u32; 3] {
        let shrink = |size: u32| size.checked_shr(level).unwrap_or(0).max(1);
        [shrink(self.width), shrink(self.height), shrink(self.depth)]
    }

    /// The number of subresources: mip levels times array slices.
    pub fn subresource_count(&self) -> u64 {
        u64::from(self.mip_levels).saturating_mul(u64::from(self.array_size))
    }

    /// The bytes one row of mip `level` takes (a row of blocks for block-compressed formats) and the number of rows
    /// per depth slice, or an error for a format with no memory layout.
    pub fn mip_layout(&self, level: u32) -> Result<MipLayout> {
        let info = self.format.info();
        let (block_width, block_height) = info.layout.block_size();
        let element_bytes = info
            .layout
            .element_bytes()
            .and_then(|b| u64::try_from(b).ok())
            .unwrap_or(0);
        if element_bytes == 0 || block_width == 0 || block_height == 0 {
            return Err(Error::new(
                "texture",
                format!("the format {} has no memory layout a draw can read", self.format),
            ));
        }
        let [width, height, depth] = self.mip_size(level);
        let columns = u64::from(width.div_ceil(block_width));
        let rows = u64::from(height.div_ceil(block_height));
        let row_bytes = columns.saturating_mul(element_bytes);
        let plane_bytes = row_bytes.saturating_mul(rows).saturating_mul(u64::from(depth));
        let samples = u64::from(self.sample_count.max(1));
        Ok(MipLayout {
            row_bytes,
            rows,
            slices: u64::from(depth),
            samples,
            plane_bytes,
            bytes: plane_bytes.saturating_mul(samples),
        })
    }

    /// Checks the shape against D3D11's rules that the rest of the code relies on: non-zero sizes, 1D and 2D depth 1,
    /// 3D array size 1, mip levels at most what the largest side allows (5.3.x); a sample count of 1, 2, 4, 8, 16 or
    /// 32 (`D3D11_MAX_MULTISAMPLE_SAMPLE_COUNT`), above 1 only for a 2D texture of one mip level (5.1.2's
    /// `SampleDesc`: buffers, 1D and 3D textures have one sample; a multisampled texture has no mips).
    pub fn validate(&self) -> Result<()> {
        let fail = |detail: String| Err(Error::new("texture", detail));
        if self.width == 0 || self.height == 0 || self.depth == 0 || self.array_size == 0 || self.mip_levels == 0 {
            return fail(format!("a size is zero: {self:?}"));
        }
        if !self.sample_count.is_power_of_two() || self.sample_count > 32 {
            return fail(format!("{} samples per texel", self.sample_count));
        }
        if self.sample_count > 1 && (self.dimension != ResourceDimension::Texture2D || self.mip_levels != 1) {
            return fail(format!(
                "a {} of {} mip levels has {} samples per texel (only a 2D texture of one mip is multisampled)",
                self.dimension, self.mip_levels, self.sample_count
            ));
        }
        match self.dimension {
            ResourceDimension::Texture1D if self.height != 1 || self.depth != 1 => {
                return fail(format!("a 1D texture is {}x{}x{}", self.width, self.height, self.depth));
            }
            ResourceDimension::Texture2D if self.depth != 1 => {
                return fail(format!("a 2D texture has depth {}", self.depth));
            }
            ResourceDimension::Texture3D if self.array_size != 1 => {
                return fail(format!("a 3D texture has {} array slices", self.array_size));
            }
            ResourceDimension::Buffer | ResourceDimension::Unknown => {
                return fail(format!("{} is not a texture dimension", self.dimension));
            }
            _ => {}
        }
        let largest = self.width.max(self.height).max(self.depth);
        let full_chain = u32::BITS.saturating_sub(largest.leading_zeros());
        if self.mip_levels > full_chain {
            return fail(format!(
                "{} mip levels, but a largest side of {largest} allows {full_chain}",
                self.mip_levels
            ));
        }
        Ok(())
    }
}

/// How one mip level of a texture lies in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MipLayout {
    /// Bytes per row of texels (or of 4x4 blocks).
    pub row_bytes: u64,
    /// Rows per depth slice (block rows for block-compressed formats).
    pub rows: u64,
    /// Depth slices (1 but for 3D).
    pub slices: u64,
    /// Samples per texel: planes of [`MipLayout::plane_bytes`] each (1 without multisampling).
    pub samples: u64,
    /// One sample plane's size in bytes: `row_bytes * rows * slices`.
    pub plane_bytes: u64,
    /// The whole subresource's size in bytes: `plane_bytes * samples`.
    pub bytes: u64,
}

/// A texture and the contents of every subresource.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// Its shape.
    pub shape: TextureShape,
    /// Subresource `mip + slice * mip_levels`, each exactly [`MipLayout::bytes`] long.
    pub subresources: Vec<Arc<[u8]>>,
}

impl Texture {
    /// A texture of `shape` holding `subresources`, after checking the shape and that each subresource has exactly
    /// the size its mip level's layout gives.
    pub fn new(shape: TextureShape, subresources: Vec<Arc<[u8]>>) -> Result<Self> {
        shape.validate()?;
        if u64::try_from(subresources.len()).ok() != Some(shape.subresource_count()) {
            return Err(Error::new(
                "texture",
                format!(
                    "{} mip levels x {} slices need {} subresources, and {} are given",
                    shape.mip_levels,
                    shape.array_size,
                    shape.subresource_count(),
                    subresources.len()
                ),
            ));
        }
        for (index, data) in subresources.iter().enumerate() {
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            let level = index.checked_rem(shape.mip_levels).unwrap_or(0);
            let layout = shape.mip_layout(level)?;
            if u64::try_from(data.len()).ok() != Some(layout.bytes) {
                return Err(Error::new(
                    "texture",
                    format!(
                        "subresource {index} (mip {level}) has {} bytes where its {}x{}x{} texels of {} take {}",
                        data.len(),
                        shape.mip_size(level)[0],
                        shape.mip_size(level)[1],
                        shape.mip_size(level)[2],
                        shape.format,
                        layout.bytes
                    ),
                ));
            }
        }
        Ok(Self { shape, subresources })
    }

    /// The contents of mip `level` of array slice `slice`, if the texture has it.
    pub fn subresource(&self, level: u32, slice: u32) -> Option<&[u8]> {
        if level >= self.shape.mip_levels || slice >= self.shape.array_size {
            return None;
        }
        let index = slice.checked_mul(self.shape.mip_levels)?.checked_add(level)?;
        self.subresources.get(usize::try_from(index).ok()?).map(|s| &s[..])
    }
}

/// A resource: a buffer's bytes or a texture.
#[derive(Clone, Debug, PartialEq)]
pub enum Resource {
    /// A buffer.
    Buffer(Arc<[u8]>),
    /// A texture.
    Texture(Texture),
}

/// How a shader resource view sees its resource (`D3D11_SHADER_RESOURCE_VIEW_DESC`; 5.2). Fields a dimension does not
/// use are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ShaderResourceViewDesc {
    /// The format the view reads texels as (a typed member of the resource's family).
    pub format: Format,
    /// The view's dimension.
    pub dimension: SrvDimension,
    /// The most detailed mip level the view sees (textures).
    pub most_detailed_mip: u32,
    /// How many mip levels it sees; `u32::MAX` (-1 in the API) for all from `most_detailed_mip` down.
    pub mip_levels: u32,
    /// The first array slice it sees (for cube arrays, the first 2D face).
    pub first_array_slice: u32,
    /// How many array slices it sees (for cube arrays, the number of cubes).
    pub array_size: u32,
    /// Buffers: the first element it sees.
    pub first_element: u32,
    /// Buffers: how many elements it sees.
    pub num_elements: u32,
    /// Buffers (`BUFFEREX`): whether it is a raw (byte address) view.
    pub raw: bool,
    /// Structured buffers: the structure stride in bytes (0 for typed and raw views).
    pub structure_stride: u32,
}

impl Default for ShaderResourceViewDesc {
    fn default() -> Self {
        Self {
            format: Format::Unknown,
            dimension: SrvDimension::Unknown,
            most_detailed_mip: 0,
            mip_levels: u32::MAX,
            first_array_slice: 0,
            array_size: 1,
            first_element: 0,
            num_elements: 0,
            raw: false,
            structure_stride: 0,
        }
    }
}

/// A shader resource view: a resource as a shader reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderResourceView {
    /// The resource.
    pub resource: Arc<Resource>,
    /// How the view sees it.
    pub desc: ShaderResourceViewDesc,
}

/// How a render target view sees its resource (`D3D11_RENDER_TARGET_VIEW_DESC`; 5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RenderTargetViewDesc {
    /// The format the view writes (a typed member of the resource's family).
    pub format: Format,
    /// The view's dimension.
    pub dimension: RtvDimension,
    /// The mip level it writes.
    pub mip_slice: u32,
    /// The first array slice (3D: the first depth slice).
    pub first_array_slice: u32,
    /// How many array slices (3D: depth slices); `u32::MAX` for all.
    pub array_size: u32,
}

impl Default for RenderTargetViewDesc {
    fn default() -> Self {
        Self {
            format: Format::Unknown,
            dimension: RtvDimension::Texture2D,
            mip_slice: 0,
            first_array_slice: 0,
            array_size: 1,
        }
    }
}

/// How a depth-stencil view sees its resource (`D3D11_DEPTH_STENCIL_VIEW_DESC`; 5.2, 17.13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DepthStencilViewDesc {
    /// A depth format (`D16_UNORM`, `D24_UNORM_S8_UINT`, `D32_FLOAT`, `D32_FLOAT_S8X24_UINT`).
    pub format: Format,
    /// The view's dimension.
    pub dimension: DsvDimension,
    /// The mip level it writes.
    pub mip_slice: u32,
    /// The first array slice.
    pub first_array_slice: u32,
    /// How many array slices.
    pub array_size: u32,
    /// Depth is read-only through this view (17.13).
    pub read_only_depth: bool,
    /// Stencil is read-only through this view (17.13).
    pub read_only_stencil: bool,
}

impl Default for DepthStencilViewDesc {
    fn default() -> Self {
        Self {
            format: Format::Unknown,
            dimension: DsvDimension::Texture2D,
            mip_slice: 0,
            first_array_slice: 0,
            array_size: 1,
            read_only_depth: false,
            read_only_stencil: false,
        }
    }
}

/// Sampler state (`D3D11_SAMPLER_DESC`; 7.18.3). The defaults are D3D11's default sampler.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SamplerDesc {
    /// The filter: point/linear per min, mag and mip, anisotropic, and the reduction.
    pub filter: Filter,
    /// What a u coordinate outside [0, 1] reads.
    pub address_u: AddressMode,
    /// What a v coordinate outside [0, 1] reads.
    pub address_v: AddressMode,
    /// What a w coordinate outside [0, 1] reads.
    pub address_w: AddressMode,
    /// Added to the computed level of detail.
    pub mip_lod_bias: f32,
    /// The largest ratio of anisotropy the anisotropic filter takes (1 to 16).
    pub max_anisotropy: u32,
    /// The comparison of a comparison filter: the reference (incoming) value against the texel.
    pub comparison: ComparisonFunc,
    /// The colour `BORDER` addressing reads (r, g, b, a).
    pub border_color: [f32; 4],
    /// The least detailed level of detail is clamped to at least this.
    pub min_lod: f32,
    /// The level of detail is clamped to at most this.
    pub max_lod: f32,
}

impl Default for SamplerDesc {
    fn default() -> Self {
        Self {
            filter: Filter::MinMagMipLinear,
            address_u: AddressMode::Clamp,
            address_v: AddressMode::Clamp,
            address_w: AddressMode::Clamp,
            mip_lod_bias: 0.0,
            max_anisotropy: 1,
            comparison: ComparisonFunc::Never,
            border_color: [1.0; 4],
            min_lod: -f32::MAX,
            max_lod: f32::MAX,
        }
    }
}

/// How a filter combines the texels it reads (`D3D11_FILTER` bits [8:7]; 7.18.3, 5.9.4.5.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// A weighted average.
    Standard,
    /// A weighted average of comparison results (0 or 1) against a reference value (7.18.15).
    Comparison,
    /// The minimum of the texels with non-zero weight.
    Minimum,
    /// The maximum of the texels with non-zero weight.
    Maximum,
}

impl Filter {
    /// Whether minification filters linearly (bits [5:4]).
    pub fn min_linear(self) -> bool {
        self.value() >> 4 & 3 == 1
    }

    /// Whether magnification filters linearly (bits [3:2]).
    pub fn mag_linear(self) -> bool {
        self.value() >> 2 & 3 == 1
    }

    /// Whether mip levels blend linearly (bits [1:0]).
    pub fn mip_linear(self) -> bool {
        self.value() & 3 == 1
    }

    /// Whether the filter is anisotropic (bit 6).
    pub fn anisotropic(self) -> bool {
        self.value() >> 6 & 1 == 1
    }

    /// How the filter combines texels (bits [8:7]).
    pub fn reduction(self) -> Reduction {
        match self.value() >> 7 & 3 {
            0 => Reduction::Standard,
            1 => Reduction::Comparison,
            2 => Reduction::Minimum,
            _ => Reduction::Maximum,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_2d(width: u32, height: u32, mips: u32, format: Format) -> TextureShape {
        TextureShape {
            dimension: ResourceDimension::Texture2D,
            format,
            width,
            height,
            depth: 1,
            array_size: 1,
            mip_levels: mips,
            sample_count: 1,
        }
    }

    #[test]
    fn each_mip_halves_rounding_down_to_one() {
        let shape = shape_2d(13, 4, 4, Format::R8G8B8A8Unorm);
        assert_eq!(shape.mip_size(0), [13, 4, 1]);
        assert_eq!(shape.mip_size(1), [6, 2, 1]);
        assert_eq!(shape.mip_size(2), [3, 1, 1]);
        assert_eq!(shape.mip_size(3), [1, 1, 1]);
        assert_eq!(shape.mip_size(40), [1, 1, 1]);
    }

    #[test]
    fn a_block_compressed_mip_holds_whole_blocks() {
        // BC1: 8 bytes per 4x4 block; a 13x4 mip 0 is 4 blocks by 1, a 3x1 mip 2 is one block.
        let shape = shape_2d(13, 4, 4, Format::Bc1Unorm);
        assert_eq!(shape.mip_layout(0).unwrap().bytes, 32);
        assert_eq!(shape.mip_layout(2).unwrap().bytes, 8);
    }

    #[test]
    fn a_multisampled_subresource_holds_one_plane_per_sample() {
        // 3x2 RGBA8 with 4 samples: a plane is 3 * 4 * 2 = 24 bytes, the subresource 4 planes.
        let mut shape = shape_2d(3, 2, 1, Format::R8G8B8A8Unorm);
        shape.sample_count = 4;
        assert!(shape.validate().is_ok());
        let layout = shape.mip_layout(0).unwrap();
        assert_eq!(
            (layout.row_bytes, layout.plane_bytes, layout.samples, layout.bytes),
            (12, 24, 4, 96)
        );
        shape.sample_count = 3;
        assert!(shape.validate().is_err());
        shape.sample_count = 64;
        assert!(shape.validate().is_err());
        let mut mipped = shape_2d(4, 4, 2, Format::R8Unorm);
        mipped.sample_count = 2;
        assert!(
            mipped
                .validate()
                .unwrap_err()
                .detail
                .contains("only a 2D texture of one mip")
        );
    }

    #[test]
    fn more_mips_than_the_largest_side_allows_is_an_error() {
        // 13 is 0b1101: mips 13, 6, 3, 1 - four levels.
        assert!(shape_2d(13, 4, 4, Format::R8Unorm).validate().is_ok());
        assert!(shape_2d(13, 4, 5, Format::R8Unorm).validate().is_err());
    }

    #[test]
    fn a_texture_checks_each_subresource_size() {
        let shape = shape_2d(2, 2, 2, Format::R8Unorm);
        let ok = Texture::new(shape, vec![Arc::from(vec![0u8; 4]), Arc::from(vec![0u8; 1])]);
        assert!(ok.is_ok());
        let short = Texture::new(shape, vec![Arc::from(vec![0u8; 3]), Arc::from(vec![0u8; 1])]);
        assert!(short.unwrap_err().detail.contains("subresource 0 (mip 0) has 3 bytes"));
        let missing = Texture::new(shape, vec![Arc::from(vec![0u8; 4])]);
        assert!(missing.is_err());
    }

    #[test]
    fn filter_bits_decode_as_7_18_3_lays_them_out() {
        // 0x95 = COMPARISON_MIN_MAG_LINEAR_MIP_POINT... is 0x94; 0x95 is COMPARISON_MIN_MAG_MIP_LINEAR.
        let f = Filter::from_value(0x95).unwrap();
        assert!(f.min_linear() && f.mag_linear() && f.mip_linear() && !f.anisotropic());
        assert_eq!(f.reduction(), Reduction::Comparison);
        let f = Filter::from_value(0x184).unwrap(); // MAXIMUM_MIN_POINT_MAG_LINEAR_MIP_POINT
        assert!(!f.min_linear() && f.mag_linear() && !f.mip_linear());
        assert_eq!(f.reduction(), Reduction::Maximum);
        assert!(Filter::Anisotropic.anisotropic());
    }

    #[test]
    fn api_enums_take_short_full_and_numeric_names() {
        use crate::api::enums::CullMode;
        assert_eq!(CullMode::parse("BACK"), Some(CullMode::Back));
        assert_eq!(CullMode::parse("d3d11_cull_back"), Some(CullMode::Back));
        assert_eq!(CullMode::parse("3"), Some(CullMode::Back));
        assert_eq!(CullMode::parse("4"), None);
        assert_eq!(
            AddressMode::parse("D3D11_TEXTURE_ADDRESS_MIRROR_ONCE"),
            Some(AddressMode::MirrorOnce)
        );
        let json: Vec<CullMode> = serde_json::from_str(r#"["NONE", 2, "D3D11_CULL_BACK"]"#).unwrap();
        assert_eq!(json, [CullMode::None, CullMode::Front, CullMode::Back]);
        assert_eq!(serde_json::to_string(&CullMode::Front).unwrap(), r#""FRONT""#);
    }
}

/// How an unordered access view sees its resource (`D3D11_UNORDERED_ACCESS_VIEW_DESC`; 5.3.9). Fields a dimension
/// does not use are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct UnorderedAccessViewDesc {
    /// The format the view reads and writes (typed views); `R32_TYPELESS` for raw views, `UNKNOWN` for structured.
    pub format: Format,
    /// The view's dimension.
    pub dimension: UavDimension,
    /// Textures: the one mip level the view sees.
    pub mip_slice: u32,
    /// Arrays: the first slice it sees; 3D textures: the first depth slice.
    pub first_array_slice: u32,
    /// Arrays: how many slices; 3D textures: how many depth slices (`u32::MAX`, -1 in the API, for all).
    pub array_size: u32,
    /// Buffers: the first element it sees.
    pub first_element: u32,
    /// Buffers: how many elements it sees.
    pub num_elements: u32,
    /// Buffers: a raw (byte address) view (`D3D11_BUFFER_UAV_FLAG_RAW`).
    pub raw: bool,
    /// Structured buffers: an append/consume view (`D3D11_BUFFER_UAV_FLAG_APPEND`).
    pub append: bool,
    /// Structured buffers: a view with a counter (`D3D11_BUFFER_UAV_FLAG_COUNTER`).
    pub counter: bool,
    /// Structured buffers: the structure stride in bytes (the buffer's `StructureByteStride`; 0 otherwise).
    pub structure_stride: u32,
}

impl Default for UnorderedAccessViewDesc {
    fn default() -> Self {
        Self {
            format: Format::Unknown,
            dimension: UavDimension::Unknown,
            mip_slice: 0,
            first_array_slice: 0,
            array_size: 1,
            first_element: 0,
            num_elements: 0,
            raw: false,
            append: false,
            counter: false,
            structure_stride: 0,
        }
    }
}

/// An unordered access view bound to a slot: the resource (its contents when the dispatch or draw starts), how the
/// view sees it, and the hidden counter's initial value (`pUAVInitialCounts`; `None` keeps the counter the view had,
/// which a replay knows only as 0).
#[derive(Clone, Debug, PartialEq)]
pub struct UnorderedAccessViewBinding {
    /// The resource.
    pub resource: Arc<Resource>,
    /// How the view sees it.
    pub desc: UnorderedAccessViewDesc,
    /// The counter's value when bound.
    pub initial_count: Option<u32>,
}
