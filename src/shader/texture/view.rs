//! A shader resource view resolved for reading (5.2): checked against its resource once, with what every read needs
//! worked out up front — the format's codec, the mip levels and array slices the view sees, each level's size and
//! row pitch, the subresources' bytes — so that a texel read is a few multiplications and one decode.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use crate::api::enums::{ResourceDimension, SrvDimension};
use crate::api::resource::{Resource, ShaderResourceView, Texture};
use crate::format::{FieldKind, Format, Layout, NumericKind, ShaderType, Texel, TexelCodec, bc::BlockTexels};
use crate::{Error, Result};

/// The bits of 1.0f.
const ONE_F32: u32 = 0x3f80_0000;

/// A shader resource view resolved once per draw: the view's format codec, its mip and slice range, each level's
/// size. Cheap to query per lane; reading a texel allocates nothing.
#[derive(Clone, Debug)]
pub struct TextureView {
    /// How the view sees its resource.
    pub(super) dimension: SrvDimension,
    /// The view's format (`Unknown` for raw and structured buffers).
    pub(super) format: Format,
    /// The resource's data as the view sees it.
    pub(super) content: Content,
    /// How it is filtered when a draw is replayed under variants (the spec's rules by default).
    pub(super) variants: super::lod::FilterVariants,
}

/// What a view reads.
#[derive(Clone, Debug)]
pub(super) enum Content {
    /// A buffer view.
    Buffer(BufferView),
    /// A texture view.
    Texture(TextureData),
}

/// A buffer view: a range of a buffer's bytes in elements (5.2, 5.2.2).
#[derive(Clone, Debug)]
pub(super) struct BufferView {
    /// The whole buffer.
    pub(super) data: Arc<[u8]>,
    /// How the elements are read.
    pub(super) kind: BufferKind,
    /// The byte the view's first element starts at.
    pub(super) first_byte: u64,
    /// Bytes per element: the format's size (typed), 4 (raw) or the structure stride (structured).
    pub(super) element_bytes: u64,
    /// Elements in the view.
    pub(super) elements: u32,
}

/// How a buffer view's elements are read.
#[derive(Clone, Copy, Debug)]
pub(super) enum BufferKind {
    /// Typed elements, decoded by the view format (`ld`).
    Typed(TexelCodec),
    /// 32-bit words at byte addresses (`ld_raw`).
    Raw,
    /// Structures of `element_bytes` bytes (`ld_structured`).
    Structured,
}

/// A texture view: the levels and slices it sees, and how to decode them.
#[derive(Clone, Debug)]
pub(super) struct TextureData {
    /// Decodes the view format.
    pub(super) codec: TexelCodec,
    /// What reads return: float, uint or sint words.
    pub(super) shader_type: ShaderType,
    /// The components the format stores (bit 0 = x .. bit 3 = w).
    pub(super) channels: u8,
    /// The view's mip levels, most detailed first.
    pub(super) mips: Vec<MipLevel>,
    /// Array slices the view sees (6 per cube for cube views; 1 for 3D).
    pub(super) slices: u32,
    /// Subresource bytes, `[slice * mips.len() + mip]` in view numbering.
    pub(super) subresources: Vec<Arc<[u8]>>,
    /// Samples per texel of the resource (1 but for a multisampled one): each subresource holds that many planes of
    /// [`MipLevel::plane_bytes`], sample 0's first (as [`crate::api::resource`] stores them).
    pub(super) sample_count: u32,
    /// Subresources decoded whole once read often enough, shared by the view's clones.
    pub(super) decoded: Arc<DecodedSubresources>,
}

/// When a texture view decodes a subresource whole rather than texel by texel ([`DecodedSubresources`]). The words
/// are the same either way; only the time differs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TextureDecoding {
    /// Once its reads have reached its texel count (the decoding then costs at most the reads made so far).
    #[default]
    Adaptive,
    /// At its first read.
    Whole,
    /// Never: every read decodes its texel.
    PerTexel,
}

/// The bytes of decoded texels one view may hold ([`DecodedSubresources`]).
const DECODED_BUDGET_BYTES: u64 = 128 << 20;

/// A view's subresources decoded whole into shader words, each the first time its reads reach its texel count:
/// then every later read is an index, and the decoding costs at most as much again as the reads already made. The
/// words are the very ones the per-texel decode gives (they are made by it). Single-sampled views only, within
/// [`DECODED_BUDGET_BYTES`]; a subresource past the budget keeps being decoded per texel.
#[derive(Debug, Default)]
pub(super) struct DecodedSubresources {
    /// One per subresource, in [`TextureData::subresources`]' order.
    slots: Vec<DecodedSlot>,
    /// Bytes of the budget not yet taken.
    budget_left: AtomicU64,
    /// When to decode.
    decoding: TextureDecoding,
}

/// One subresource's reads so far and, once decided, its decoded texels (`None`: declined).
#[derive(Debug, Default)]
struct DecodedSlot {
    reads: AtomicU64,
    texels: OnceLock<Option<Box<[Texel]>>>,
}

impl DecodedSubresources {
    /// Slots for `count` subresources.
    fn new(count: usize) -> Self {
        Self {
            slots: (0..count).map(|_| DecodedSlot::default()).collect(),
            budget_left: AtomicU64::new(DECODED_BUDGET_BYTES),
            decoding: TextureDecoding::Adaptive,
        }
    }

    /// Takes `bytes` from the budget, if that much is left.
    fn take_budget(&self, bytes: u64) -> bool {
        self.budget_left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| left.checked_sub(bytes))
            .is_ok()
    }
}

/// One mip level as the view sees it.
#[derive(Clone, Copy, Debug)]
pub(super) struct MipLevel {
    /// Width, height, depth in texels.
    pub(super) size: [u32; 3],
    /// Bytes per row of elements (texels or blocks).
    pub(super) row_bytes: u64,
    /// Bytes per depth slice.
    pub(super) slice_bytes: u64,
    /// Bytes of one sample's plane: every depth slice of the level.
    pub(super) plane_bytes: u64,
}

/// The last BC block decoded, so the texels of one filter footprint decode each block once.
#[derive(Clone, Debug)]
pub(super) struct BlockCache {
    /// (mip, slice, block x, block y, depth, sample) of the cached block.
    key: Option<(u32, u32, u32, u32, u32, u32)>,
    /// Its 16 texels, row by row.
    texels: BlockTexels,
}

impl BlockCache {
    /// An empty cache.
    pub(super) fn new() -> Self {
        Self {
            key: None,
            texels: [[0; 4]; 16],
        }
    }
}

/// The view error for `srv`, saying what is wrong.
fn view_error(detail: String) -> Error {
    Error::new("shader resource view", detail)
}

impl TextureView {
    /// Resolves `srv` against its resource, checking what 5.2 requires of a view: its dimension fits the resource's
    /// (a 2D resource for 2D, 2D array, multisample, cube and cube array views; a multisampled resource only through
    /// a multisample view, `Texture2DMS` seeing slice 0 and `Texture2DMSArray` its slice range, both mip 0 and every
    /// sample (5.2, 7.17.1); a square face and six slices per cube), its format is the resource's or, for a
    /// `_TYPELESS` resource, a member of its family (19.1.4 "Cast within Bit Layout") and not a depth format, its mip
    /// range and slice range lie inside the resource, and buffer elements inside the buffer. A view format of
    /// `UNKNOWN` on a texture means the resource's own format (as a view created without a description).
    pub fn new(srv: &ShaderResourceView) -> Result<TextureView> {
        let desc = &srv.desc;
        match (&*srv.resource, desc.dimension) {
            (Resource::Buffer(data), SrvDimension::Buffer | SrvDimension::BufferEx) => {
                let (format, buffer) = buffer_view(data, srv)?;
                Ok(TextureView {
                    dimension: desc.dimension,
                    format,
                    content: Content::Buffer(buffer),
                    variants: super::lod::FilterVariants::default(),
                })
            }
            (Resource::Buffer(_), dimension) => Err(view_error(format!("a {dimension} view cannot see a buffer"))),
            (Resource::Texture(_), SrvDimension::Buffer | SrvDimension::BufferEx | SrvDimension::Unknown) => {
                Err(view_error(format!("a {} view cannot see a texture", desc.dimension)))
            }
            (Resource::Texture(texture), dimension) => {
                let (format, data) = texture_view(texture, srv)?;
                Ok(TextureView {
                    dimension,
                    format,
                    content: Content::Texture(data),
                    variants: super::lod::FilterVariants::default(),
                })
            }
        }
    }

    /// How the view sees its resource.
    pub fn dimension(&self) -> SrvDimension {
        self.dimension
    }

    /// The format the view reads texels as (`UNKNOWN` for raw and structured buffers).
    pub fn format(&self) -> Format {
        self.format
    }

    /// Sets how the view computes LODs and filters when a draw is replayed under variants
    /// ([`super::lod::FilterVariants`]).
    pub fn set_variants(&mut self, variants: super::lod::FilterVariants) {
        self.variants = variants;
    }

    /// Sets when the view decodes a subresource whole (before any read).
    pub fn set_decoding(&mut self, decoding: TextureDecoding) {
        if let Content::Texture(data) = &mut self.content {
            let count = data.subresources.len();
            let mut decoded = DecodedSubresources::new(count);
            decoded.decoding = decoding;
            data.decoded = Arc::new(decoded);
        }
    }

    /// The view's texture data, or an error naming the instruction that needs one.
    pub(super) fn texture(&self, instruction: &str) -> Result<&TextureData> {
        match &self.content {
            Content::Texture(data) => Ok(data),
            Content::Buffer(_) => Err(Error::new(
                "texture",
                format!("{instruction} cannot read a {} view (a buffer)", self.dimension),
            )),
        }
    }
}

/// Checks a buffer view and resolves its element range (5.2, 5.2.2, 22.3.47).
fn buffer_view(data: &Arc<[u8]>, srv: &ShaderResourceView) -> Result<(Format, BufferView)> {
    let desc = &srv.desc;
    let (kind, element_bytes) = if desc.structure_stride > 0 {
        (BufferKind::Structured, u64::from(desc.structure_stride))
    } else if desc.raw {
        if !matches!(desc.format, Format::R32Typeless | Format::Unknown) {
            return Err(view_error(format!(
                "a raw buffer view must use R32_TYPELESS, not {}",
                desc.format
            )));
        }
        (BufferKind::Raw, 4)
    } else {
        if desc.format.info().shader_type == ShaderType::None || desc.format.is_depth() {
            return Err(view_error(format!(
                "a typed buffer view cannot read {}: it has no shader type",
                desc.format
            )));
        }
        if !matches!(desc.format.info().layout, Layout::Texel { .. }) {
            return Err(view_error(format!(
                "a typed buffer view cannot read {}: it stores texels in blocks",
                desc.format
            )));
        }
        let codec = TexelCodec::new(desc.format)?;
        (
            BufferKind::Typed(codec),
            u64::try_from(codec.element_bytes()).unwrap_or(0),
        )
    };
    if element_bytes == 0 {
        return Err(view_error(format!("{} has no element size", desc.format)));
    }
    let first_byte = u64::from(desc.first_element).saturating_mul(element_bytes);
    let view_bytes = u64::from(desc.num_elements).saturating_mul(element_bytes);
    let buffer_bytes = u64::try_from(data.len()).unwrap_or(u64::MAX);
    if first_byte.saturating_add(view_bytes) > buffer_bytes {
        return Err(view_error(format!(
            "elements {}..{} of {element_bytes} bytes end past the {buffer_bytes}-byte buffer",
            desc.first_element,
            u64::from(desc.first_element).saturating_add(u64::from(desc.num_elements))
        )));
    }
    let format = match kind {
        BufferKind::Typed(_) => desc.format,
        BufferKind::Raw => Format::R32Typeless,
        BufferKind::Structured => Format::Unknown,
    };
    Ok((
        format,
        BufferView {
            data: Arc::clone(data),
            kind,
            first_byte,
            element_bytes,
            elements: desc.num_elements,
        },
    ))
}

/// Checks a texture view and resolves its levels and slices (5.2, 5.3.5–5.3.8).
fn texture_view(texture: &Texture, srv: &ShaderResourceView) -> Result<(Format, TextureData)> {
    let desc = &srv.desc;
    let shape = &texture.shape;
    // `Texture`'s fields are public: a texture need not have come through `Texture::new`.
    shape.validate()?;
    let dimension = desc.dimension;
    let resource_fits = match dimension {
        SrvDimension::Texture1D | SrvDimension::Texture1DArray => shape.dimension == ResourceDimension::Texture1D,
        SrvDimension::Texture3D => shape.dimension == ResourceDimension::Texture3D,
        _ => shape.dimension == ResourceDimension::Texture2D,
    };
    if !resource_fits {
        return Err(view_error(format!(
            "a {dimension} view cannot see a {} resource",
            shape.dimension
        )));
    }
    let multisample_view = matches!(dimension, SrvDimension::Texture2DMs | SrvDimension::Texture2DMsArray);
    if shape.sample_count > 1 && !multisample_view {
        return Err(view_error(format!(
            "a {dimension} view cannot see a texture of {} samples per texel (only a multisample view can)",
            shape.sample_count
        )));
    }

    // Format: the resource's own, or a member of its typeless family; never a depth format (those are DSV formats).
    let format = if desc.format == Format::Unknown {
        shape.format
    } else {
        desc.format
    };
    if !shape.format.can_view_as(format) {
        return Err(view_error(format!(
            "the view format {format} is not a member of the resource format {}'s family (19.1.4)",
            shape.format
        )));
    }
    if format.is_depth() {
        return Err(view_error(format!(
            "{format} is a depth-stencil format; a shader reads depth through R32_FLOAT, R24_UNORM_X8_TYPELESS, ..."
        )));
    }
    let info = format.info();
    if info.shader_type == ShaderType::None {
        return Err(view_error(format!("a shader cannot read {format}: it has no type")));
    }
    let codec = TexelCodec::new(format)?;

    // Mip range (5.2): most detailed mip, and a count (u32::MAX = all the rest). A multisample view has no mip
    // range (`D3D11_TEX2DMS_SRV` holds none): it sees mip 0, the only one a multisampled resource has.
    let first_mip = if multisample_view { 0 } else { desc.most_detailed_mip };
    if first_mip >= shape.mip_levels {
        return Err(view_error(format!(
            "most detailed mip {first_mip}, but the resource has {} levels",
            shape.mip_levels
        )));
    }
    let available = shape.mip_levels.wrapping_sub(first_mip);
    let mip_count = if multisample_view {
        1
    } else if desc.mip_levels == u32::MAX {
        available
    } else if desc.mip_levels == 0 || desc.mip_levels > available {
        return Err(view_error(format!(
            "{} mip levels from mip {first_mip}, but the resource has {}",
            desc.mip_levels, shape.mip_levels
        )));
    } else {
        desc.mip_levels
    };

    // Slice range: non-array views see slice 0 (cubes faces 0..6); array views their range; cube arrays 6 faces per
    // cube from the first face.
    let (first_slice, slices) = match dimension {
        SrvDimension::Texture1D | SrvDimension::Texture2D | SrvDimension::Texture2DMs | SrvDimension::Texture3D => {
            (0, 1)
        }
        SrvDimension::TextureCube => (0, 6),
        SrvDimension::TextureCubeArray => (desc.first_array_slice, desc.array_size.saturating_mul(6)),
        _ => (desc.first_array_slice, desc.array_size),
    };
    if slices == 0 || first_slice.saturating_add(slices) > shape.array_size {
        return Err(view_error(format!(
            "array slices {first_slice}..{} of a {dimension} view, but the resource has {}",
            first_slice.saturating_add(slices),
            shape.array_size
        )));
    }
    if matches!(dimension, SrvDimension::TextureCube | SrvDimension::TextureCubeArray) && shape.width != shape.height {
        return Err(view_error(format!(
            "a cube's faces are square; this resource is {}x{}",
            shape.width, shape.height
        )));
    }

    let mut mips = Vec::new();
    for level in first_mip..first_mip.saturating_add(mip_count) {
        let layout = shape.mip_layout(level)?;
        mips.push(MipLevel {
            size: shape.mip_size(level),
            row_bytes: layout.row_bytes,
            slice_bytes: layout.row_bytes.saturating_mul(layout.rows),
            plane_bytes: layout.plane_bytes,
        });
    }
    let mut subresources = Vec::new();
    for slice in first_slice..first_slice.saturating_add(slices) {
        for (index, level) in (first_mip..first_mip.saturating_add(mip_count)).enumerate() {
            let data = texture.subresource(level, slice).ok_or_else(|| {
                view_error(format!(
                    "the resource has no subresource for mip {level}, slice {slice}"
                ))
            })?;
            // Every sample's plane (`MipLayout::bytes`; one plane without multisampling).
            let needed = mips.get(index).map_or(0, |m| {
                m.plane_bytes.saturating_mul(u64::from(shape.sample_count.max(1)))
            });
            if u64::try_from(data.len()).ok() != Some(needed) {
                return Err(view_error(format!(
                    "mip {level} of slice {slice} holds {} bytes where its texels take {needed}",
                    data.len()
                )));
            }
            let index = usize::try_from(slice.wrapping_mul(shape.mip_levels).wrapping_add(level)).unwrap_or(usize::MAX);
            let shared = texture
                .subresources
                .get(index)
                .cloned()
                .ok_or_else(|| view_error(format!("subresource {index} is missing")))?;
            subresources.push(shared);
        }
    }
    Ok((
        format,
        TextureData {
            codec,
            shader_type: info.shader_type,
            channels: info.channels,
            mips,
            slices,
            decoded: Arc::new(DecodedSubresources::new(subresources.len())),
            subresources,
            sample_count: shape.sample_count.max(1),
        },
    ))
}

impl TextureData {
    /// The number of mip levels the view sees.
    pub(super) fn mip_count(&self) -> u32 {
        u32::try_from(self.mips.len()).unwrap_or(u32::MAX)
    }

    /// The size of view mip `level`, if the view has it.
    pub(super) fn size(&self, level: u32) -> Option<[u32; 3]> {
        self.mips.get(usize::try_from(level).ok()?).map(|m| m.size)
    }

    /// The texel at (`x`, `y`, `z`) of view mip `level`, view slice `slice`: its words by the view format (19.1.3.3
    /// defaults for components the format lacks). The address must lie inside the level; one outside is an error
    /// (callers apply address modes or the out-of-range rule first). A multisampled view's texel is its sample 0.
    pub(super) fn texel(&self, level: u32, slice: u32, address: [u32; 3], cache: &mut BlockCache) -> Result<Texel> {
        self.sample_texel(level, slice, address, 0, cache)
    }

    /// Sample `sample` of the texel at (`x`, `y`, `z`) of view mip `level`, view slice `slice` (7.17.1, 22.4.7): its
    /// words by the view format, read from the sample's plane. The address and the sample index must lie inside the
    /// view; outside is an error (callers apply the out-of-range rule first).
    pub(super) fn sample_texel(
        &self,
        level: u32,
        slice: u32,
        [x, y, z]: [u32; 3],
        sample: u32,
        cache: &mut BlockCache,
    ) -> Result<Texel> {
        let outside = || outside_view(level, slice, [x, y, z], sample);
        if sample >= self.sample_count {
            return Err(outside());
        }
        let mip = self
            .mips
            .get(usize::try_from(level).map_err(|_| outside())?)
            .ok_or_else(outside)?;
        if x >= mip.size[0] || y >= mip.size[1] || z >= mip.size[2] || slice >= self.slices {
            return Err(outside());
        }
        let index = u64::from(slice)
            .saturating_mul(u64::try_from(self.mips.len()).unwrap_or(u64::MAX))
            .saturating_add(u64::from(level));
        let index = usize::try_from(index).map_err(|_| outside())?;
        if self.sample_count == 1
            && let Some(texels) = self.decoded_subresource(index, level, slice, mip)
        {
            let at = u64::from(z)
                .saturating_mul(u64::from(mip.size[1]))
                .saturating_add(u64::from(y))
                .saturating_mul(u64::from(mip.size[0]))
                .saturating_add(u64::from(x));
            return usize::try_from(at)
                .ok()
                .and_then(|at| texels.get(at))
                .copied()
                .ok_or_else(outside);
        }
        self.decode_texel(index, level, slice, mip, [x, y, z], sample, cache)
    }

    /// The decoded texels of subresource `index` (view mip `level` of view slice `slice`, laid out as `mip`), once
    /// its reads have reached its texel count and the budget allows; counts this read.
    fn decoded_subresource(&self, index: usize, level: u32, slice: u32, mip: &MipLevel) -> Option<&[Texel]> {
        let slot = self.decoded.slots.get(index)?;
        if let Some(done) = slot.texels.get() {
            return done.as_deref();
        }
        let texels = u64::from(mip.size[0])
            .saturating_mul(u64::from(mip.size[1]))
            .saturating_mul(u64::from(mip.size[2]));
        let threshold = match self.decoded.decoding {
            TextureDecoding::Adaptive => texels.max(64),
            TextureDecoding::Whole => 1,
            TextureDecoding::PerTexel => return None,
        };
        let reads = slot.reads.fetch_add(1, Ordering::Relaxed).saturating_add(1);
        if reads < threshold {
            return None;
        }
        slot.texels
            .get_or_init(|| self.decode_whole(index, level, slice, mip, texels))
            .as_deref()
    }

    /// Every texel of subresource `index`, by the per-texel decode, within the budget; `None` past it or when a
    /// texel does not decode (the per-texel path then reports the error where it is read).
    fn decode_whole(&self, index: usize, level: u32, slice: u32, mip: &MipLevel, texels: u64) -> Option<Box<[Texel]>> {
        let bytes = texels.checked_mul(std::mem::size_of::<Texel>() as u64)?;
        if !self.decoded.take_budget(bytes) {
            return None;
        }
        let mut out = Vec::new();
        out.try_reserve_exact(usize::try_from(texels).ok()?).ok()?;
        let mut cache = BlockCache::new();
        for z in 0..mip.size[2] {
            for y in 0..mip.size[1] {
                for x in 0..mip.size[0] {
                    out.push(
                        self.decode_texel(index, level, slice, mip, [x, y, z], 0, &mut cache)
                            .ok()?,
                    );
                }
            }
        }
        Some(out.into_boxed_slice())
    }

    /// Sample `sample` of texel (`x`, `y`, `z`) of subresource `index` (view mip `level`, view slice `slice`, laid
    /// out as `mip`), decoded from its bytes; the address is inside the level.
    #[allow(clippy::too_many_arguments)] // the texel's whole address
    fn decode_texel(
        &self,
        index: usize,
        level: u32,
        slice: u32,
        mip: &MipLevel,
        [x, y, z]: [u32; 3],
        sample: u32,
        cache: &mut BlockCache,
    ) -> Result<Texel> {
        let outside = || outside_view(level, slice, [x, y, z], sample);
        let data = self.subresources.get(index).ok_or_else(outside)?;
        let (block_width, block_height) = self.codec.block_size();
        let (column, row) = (
            x.checked_div(block_width).unwrap_or(0),
            y.checked_div(block_height).unwrap_or(0),
        );
        let (within_x, within_y) = (
            x.checked_rem(block_width).unwrap_or(0),
            y.checked_rem(block_height).unwrap_or(0),
        );
        let element_bytes = u64::try_from(self.codec.element_bytes()).unwrap_or(u64::MAX);
        // All products are bounded by the subresource's length, checked against the layout in `TextureView::new`.
        let offset = u64::from(sample)
            .saturating_mul(mip.plane_bytes)
            .saturating_add(u64::from(z).saturating_mul(mip.slice_bytes))
            .saturating_add(u64::from(row).saturating_mul(mip.row_bytes))
            .saturating_add(u64::from(column).saturating_mul(element_bytes));
        let bytes = usize::try_from(offset)
            .ok()
            .and_then(|o| data.get(o..))
            .ok_or_else(outside)?;
        if self.codec.format().is_block_compressed() {
            let key = (level, slice, column, row, z, sample);
            if cache.key != Some(key) {
                cache.texels = self.codec.decode_block(bytes)?;
                cache.key = Some(key);
            }
            let within = usize::try_from(within_y.wrapping_mul(4).wrapping_add(within_x)).unwrap_or(usize::MAX);
            return cache.texels.get(within).copied().ok_or_else(outside);
        }
        self.codec.decode_at(bytes, within_x, within_y)
    }

    /// What an out-of-range `ld` returns: 0 in every component the format stores, the 19.1.3.3 default (0, or 1 for
    /// alpha) in the others (22.4.6).
    pub(super) fn zero_texel(&self) -> Texel {
        zero_texel(self.channels, self.shader_type)
    }
}

/// The error of a read of sample `sample` of texel `address` of view mip `level`, view slice `slice` outside the view.
fn outside_view(level: u32, slice: u32, [x, y, z]: [u32; 3], sample: u32) -> Error {
    Error::new(
        "texture",
        format!("sample {sample} of texel ({x}, {y}, {z}) of mip {level}, slice {slice} is outside the view"),
    )
}

/// 0 in the components in `channels`, 19.1.3.3's defaults in the others: 0, and 1 for alpha as 1.0f or, for integer
/// formats, 0x1.
pub(super) fn zero_texel(channels: u8, shader_type: ShaderType) -> Texel {
    let one = match shader_type {
        ShaderType::Uint | ShaderType::Sint => 1,
        ShaderType::Float | ShaderType::None => ONE_F32,
    };
    [0, 0, 0, if channels & 0b1000 == 0 { one } else { 0 }]
}

/// How one component of a format holds its value, for clamping a border colour into it (7.18.9.1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum ComponentRange {
    /// The format lacks the component: it reads as its 19.1.3.3 default.
    Missing,
    /// Floating point between the bounds (inclusive).
    Float {
        /// Least value.
        min: f32,
        /// Greatest value.
        max: f32,
    },
    /// An unsigned integer of so many bits.
    Uint(u32),
    /// A signed integer of so many bits.
    Sint(u32),
}

/// The range of each shader component of `format` (x, y, z, w).
pub(super) fn component_ranges(format: Format) -> [ComponentRange; 4] {
    let info = format.info();
    let mut ranges = [ComponentRange::Missing; 4];
    let float = |kind: FieldKind, bits: u32| match kind {
        FieldKind::Unorm | FieldKind::Srgb => ComponentRange::Float { min: 0.0, max: 1.0 },
        FieldKind::Snorm => ComponentRange::Float { min: -1.0, max: 1.0 },
        FieldKind::Uint => ComponentRange::Uint(bits),
        FieldKind::Sint => ComponentRange::Sint(bits),
        FieldKind::Float => match bits {
            16 => ComponentRange::Float {
                min: -65504.0,
                max: 65504.0,
            },
            // float11 / float10 have no sign: 0 to their largest finite value (3.1.6).
            11 => ComponentRange::Float { min: 0.0, max: 65024.0 },
            10 => ComponentRange::Float { min: 0.0, max: 64512.0 },
            _ => ComponentRange::Float {
                min: f32::MIN,
                max: f32::MAX,
            },
        },
        // The shared-exponent mantissas: 0 to the largest RGBE value (19.3.2).
        FieldKind::SharedExp => ComponentRange::Float { min: 0.0, max: 65408.0 },
        FieldKind::Typeless => ComponentRange::Missing,
    };
    if info.fields().is_empty() {
        // Block formats describe their components by the format's kind alone.
        let whole = match (format, info.kind) {
            (Format::Bc6hUf16, _) => ComponentRange::Float { min: 0.0, max: 65504.0 },
            (_, NumericKind::Float) => float(FieldKind::Float, 16),
            (_, NumericKind::Snorm) => float(FieldKind::Snorm, 8),
            _ => float(FieldKind::Unorm, 8),
        };
        for (slot, range) in ranges.iter_mut().enumerate() {
            if info.channels & (1 << slot) != 0 {
                *range = whole;
            }
        }
        return ranges;
    }
    for field in info.fields() {
        if let Some(slot) = field.channel.slot()
            && let Some(range) = ranges.get_mut(slot)
        {
            *range = float(field.kind, u32::from(field.bits));
        }
    }
    ranges
}
