//! What the output merger writes: render targets and the depth-stencil buffer, each one mip level of one array slice
//! (or one depth slice of a 3D texture) of a texture, held as its bytes in the view's format, rows packed, top row
//! first (the layout of [`crate::api::resource`]). Built from a view and the texture's contents before the draw; the bytes
//! after the draw are handed back with [`RenderTarget::into_bytes`] / [`DepthStencilTarget::into_bytes`].

use crate::api::enums::{DsvDimension, ResourceDimension, RtvDimension};
use crate::api::resource::{DepthStencilViewDesc, RenderTargetViewDesc, Texture};
use crate::format::{Format, NumericKind, ShaderType, Texel, TexelCodec, WriteMask};
use crate::{Error, Result};

/// The bytes of one view-addressable slice of a texture: mip `level`, array slice or 3D depth slice `slice`.
fn view_slice(texture: &Texture, level: u32, slice: u32, what: &str) -> Result<Vec<u8>> {
    let shape = &texture.shape;
    if level >= shape.mip_levels {
        return Err(Error::new(
            what,
            format!("mip slice {level} of a texture with {} mip levels", shape.mip_levels),
        ));
    }
    if shape.sample_count != 1 {
        return Err(Error::new(
            what,
            format!(
                "the texture has {} samples per texel; only single-sample targets are drawn",
                shape.sample_count
            ),
        ));
    }
    if shape.dimension == ResourceDimension::Texture3D {
        let layout = shape.mip_layout(level)?;
        if u64::from(slice) >= layout.slices {
            return Err(Error::new(
                what,
                format!("depth slice {slice} of a mip with {} slices", layout.slices),
            ));
        }
        let data = texture
            .subresource(level, 0)
            .ok_or_else(|| Error::new(what, format!("the texture has no subresource for mip {level}")))?;
        let slice_bytes = layout.row_bytes.saturating_mul(layout.rows);
        let start = usize::try_from(slice_bytes.saturating_mul(u64::from(slice))).unwrap_or(usize::MAX);
        let end = usize::try_from(slice_bytes)
            .ok()
            .and_then(|n| start.checked_add(n))
            .unwrap_or(usize::MAX);
        return data
            .get(start..end)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| Error::new(what, format!("depth slice {slice} lies past the mip's bytes")));
    }
    if slice >= shape.array_size {
        return Err(Error::new(
            what,
            format!("array slice {slice} of a texture with {} slices", shape.array_size),
        ));
    }
    texture.subresource(level, slice).map(<[u8]>::to_vec).ok_or_else(|| {
        Error::new(
            what,
            format!("the texture has no subresource for mip {level} slice {slice}"),
        )
    })
}

/// The format a view uses: its own, or the texture's when the view says `UNKNOWN` (a null view description), after
/// checking that the texture's format family allows it (19.1.4).
fn view_format(texture: &Texture, view_format: Format, what: &str) -> Result<Format> {
    let format = if view_format == Format::Unknown {
        texture.shape.format
    } else {
        view_format
    };
    if !texture.shape.format.can_view_as(format) {
        return Err(Error::new(
            what,
            format!("a texture of {} cannot be viewed as {format}", texture.shape.format),
        ));
    }
    Ok(format)
}

/// Bytes per row and the element size of a `width` x `height` surface of `codec`'s format, after checking that
/// `len` bytes hold exactly that.
fn surface_layout(codec: &TexelCodec, width: u32, height: u32, len: usize, what: &str) -> Result<usize> {
    let element = codec.element_bytes();
    let row = usize::try_from(width).ok().and_then(|w| w.checked_mul(element));
    let total = row.and_then(|r| usize::try_from(height).ok().and_then(|h| h.checked_mul(r)));
    match (row, total) {
        (Some(row), Some(total)) if total == len && width > 0 && height > 0 => Ok(row),
        _ => Err(Error::new(
            what,
            format!(
                "{len} bytes where {width}x{height} texels of {} take {}",
                codec.format(),
                total.map_or_else(|| "more than memory holds".to_owned(), |t| t.to_string())
            ),
        )),
    }
}

/// The byte range of texel (`x`, `y`) in a surface, or an error naming the surface.
fn texel_range(x: u32, y: u32, width: u32, height: u32, row: usize, element: usize, what: &str) -> Result<usize> {
    if x >= width || y >= height {
        return Err(Error::new(
            what,
            format!("pixel ({x}, {y}) is outside the {width}x{height} target"),
        ));
    }
    // x < width and y < height, and width * height * element fits in usize (checked at construction).
    let offset = (y as usize)
        .checked_mul(row)
        .and_then(|r| r.checked_add((x as usize).checked_mul(element)?));
    offset.ok_or_else(|| Error::new(what, format!("pixel ({x}, {y}) has no offset")))
}

/// Whether `format` can be a render target here: a texel format with a colour interpretation (UNORM, SNORM, SRGB,
/// FLOAT, UINT, SINT) that the format module encodes. Depth, block-compressed, sub-sampled, shared-exponent, typeless
/// and video formats cannot.
pub fn is_renderable(format: Format) -> bool {
    let info = format.info();
    let colour = matches!(
        info.kind,
        NumericKind::Unorm
            | NumericKind::Snorm
            | NumericKind::Srgb
            | NumericKind::Float
            | NumericKind::Uint
            | NumericKind::Sint
    );
    colour && format.info().layout.block_size() == (1, 1) && TexelCodec::new(format).is_ok()
}

/// A render target: a `width` x `height` surface of texels in one colour format.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderTarget {
    /// How texels decode and encode.
    codec: TexelCodec,
    /// Width in texels.
    width: u32,
    /// Height in texels.
    height: u32,
    /// Bytes per row.
    row_bytes: usize,
    /// The texels, rows packed, top row first.
    bytes: Vec<u8>,
}

impl RenderTarget {
    /// A render target of `format` holding `bytes` (exactly `width * height` texels).
    pub fn new(format: Format, width: u32, height: u32, bytes: Vec<u8>) -> Result<RenderTarget> {
        if !is_renderable(format) {
            return Err(Error::new(
                "render target",
                format!("{format} is not a render target format"),
            ));
        }
        let codec = TexelCodec::new(format)?;
        let row_bytes = surface_layout(&codec, width, height, bytes.len(), "render target")?;
        Ok(RenderTarget {
            codec,
            width,
            height,
            row_bytes,
            bytes,
        })
    }

    /// The surface a render target view writes, with the texture's current contents (5.2, 17.14): mip `mip_slice`,
    /// array slice `first_array_slice` (for a 3D texture, that depth slice). A draw without a geometry program writes
    /// render target array index 0, the view's first slice. Multisampled and buffer views are refused.
    pub fn from_view(texture: &Texture, view: &RenderTargetViewDesc) -> Result<RenderTarget> {
        let what = "render target view";
        let dimension_fits = matches!(
            (view.dimension, texture.shape.dimension),
            (
                RtvDimension::Texture1D | RtvDimension::Texture1DArray,
                ResourceDimension::Texture1D
            ) | (
                RtvDimension::Texture2D | RtvDimension::Texture2DArray,
                ResourceDimension::Texture2D
            ) | (RtvDimension::Texture3D, ResourceDimension::Texture3D)
        );
        if !dimension_fits {
            return Err(Error::new(
                what,
                format!(
                    "a {} view of a {} resource is not drawn (buffer and multisample views are not supported)",
                    view.dimension, texture.shape.dimension
                ),
            ));
        }
        let format = view_format(texture, view.format, what)?;
        let slice = match view.dimension {
            RtvDimension::Texture1DArray | RtvDimension::Texture2DArray | RtvDimension::Texture3D => {
                view.first_array_slice
            }
            _ => 0,
        };
        let bytes = view_slice(texture, view.mip_slice, slice, what)?;
        let [width, height, _] = texture.shape.mip_size(view.mip_slice);
        RenderTarget::new(format, width, height, bytes).map_err(|e| e.within(what))
    }

    /// The view's format.
    pub fn format(&self) -> Format {
        self.codec.format()
    }

    /// The codec of the format.
    pub(crate) fn codec(&self) -> &TexelCodec {
        &self.codec
    }

    /// Width in texels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in texels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The texels, rows packed, top row first.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The texels, given back.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The stored bytes of texel (`x`, `y`).
    pub fn texel_bytes(&self, x: u32, y: u32) -> Result<&[u8]> {
        let element = self.codec.element_bytes();
        let start = texel_range(x, y, self.width, self.height, self.row_bytes, element, "render target")?;
        self.bytes
            .get(start..start.saturating_add(element))
            .ok_or_else(|| Error::new("render target", format!("pixel ({x}, {y}) lies past its bytes")))
    }

    /// The stored bytes of texel (`x`, `y`), to change.
    pub(crate) fn texel_bytes_mut(&mut self, x: u32, y: u32) -> Result<&mut [u8]> {
        let element = self.codec.element_bytes();
        let start = texel_range(x, y, self.width, self.height, self.row_bytes, element, "render target")?;
        self.bytes
            .get_mut(start..start.saturating_add(element))
            .ok_or_else(|| Error::new("render target", format!("pixel ({x}, {y}) lies past its bytes")))
    }

    /// Texel (`x`, `y`) as the words a shader reads (3.2 conversions; sRGB decoded to linear).
    pub fn read(&self, x: u32, y: u32) -> Result<Texel> {
        self.codec.decode(self.texel_bytes(x, y)?)
    }

    /// Writes the components of `texel` in `mask` (bit 0 = red) to texel (`x`, `y`), converted to the format (3.2).
    pub fn write(&mut self, x: u32, y: u32, texel: Texel, mask: WriteMask) -> Result<()> {
        let codec = self.codec;
        codec.encode_masked(texel, mask, self.texel_bytes_mut(x, y)?)
    }

    /// What the shader reads the format as: float, uint or sint words.
    pub fn shader_type(&self) -> ShaderType {
        self.format().info().shader_type
    }
}

/// A depth-stencil buffer: a `width` x `height` surface of D16_UNORM, D24_UNORM_S8_UINT, D32_FLOAT or
/// D32_FLOAT_S8X24_UINT elements, and the view's read-only flags (17.13).
#[derive(Clone, Debug, PartialEq)]
pub struct DepthStencilTarget {
    /// How elements decode and encode.
    codec: TexelCodec,
    /// Width in texels.
    width: u32,
    /// Height in texels.
    height: u32,
    /// Bytes per row.
    row_bytes: usize,
    /// Whether the format has stencil bits.
    has_stencil: bool,
    /// The view forbids depth writes (`D3D11_DSV_READ_ONLY_DEPTH`).
    read_only_depth: bool,
    /// The view forbids stencil writes (`D3D11_DSV_READ_ONLY_STENCIL`).
    read_only_stencil: bool,
    /// The elements, rows packed, top row first.
    bytes: Vec<u8>,
}

impl DepthStencilTarget {
    /// A depth-stencil buffer of `format` holding `bytes` (exactly `width * height` elements), writable.
    pub fn new(format: Format, width: u32, height: u32, bytes: Vec<u8>) -> Result<DepthStencilTarget> {
        if !format.is_depth() {
            return Err(Error::new(
                "depth-stencil buffer",
                format!("{format} is not a depth-stencil format"),
            ));
        }
        let codec = TexelCodec::new(format)?;
        let row_bytes = surface_layout(&codec, width, height, bytes.len(), "depth-stencil buffer")?;
        Ok(DepthStencilTarget {
            codec,
            width,
            height,
            row_bytes,
            has_stencil: format.info().kind == NumericKind::DepthStencil,
            read_only_depth: false,
            read_only_stencil: false,
            bytes,
        })
    }

    /// The same buffer with the view's read-only flags (17.13).
    #[must_use]
    pub fn read_only(mut self, depth: bool, stencil: bool) -> DepthStencilTarget {
        self.read_only_depth = depth;
        self.read_only_stencil = stencil;
        self
    }

    /// The surface a depth-stencil view tests and writes, with the texture's current contents and the view's
    /// read-only flags (5.2, 17.13): mip `mip_slice`, array slice `first_array_slice`. Multisampled views are refused.
    pub fn from_view(texture: &Texture, view: &DepthStencilViewDesc) -> Result<DepthStencilTarget> {
        let what = "depth-stencil view";
        let dimension_fits = matches!(
            (view.dimension, texture.shape.dimension),
            (
                DsvDimension::Texture1D | DsvDimension::Texture1DArray,
                ResourceDimension::Texture1D
            ) | (
                DsvDimension::Texture2D | DsvDimension::Texture2DArray,
                ResourceDimension::Texture2D
            )
        );
        if !dimension_fits {
            return Err(Error::new(
                what,
                format!(
                    "a {} view of a {} resource is not drawn (multisample views are not supported)",
                    view.dimension, texture.shape.dimension
                ),
            ));
        }
        let format = view_format(texture, view.format, what)?;
        let slice = match view.dimension {
            DsvDimension::Texture1DArray | DsvDimension::Texture2DArray => view.first_array_slice,
            _ => 0,
        };
        let bytes = view_slice(texture, view.mip_slice, slice, what)?;
        let [width, height, _] = texture.shape.mip_size(view.mip_slice);
        Ok(DepthStencilTarget::new(format, width, height, bytes)
            .map_err(|e| e.within(what))?
            .read_only(view.read_only_depth, view.read_only_stencil))
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.codec.format()
    }

    /// Width in texels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in texels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether the format has stencil bits.
    pub fn has_stencil(&self) -> bool {
        self.has_stencil
    }

    /// Whether the view forbids depth writes.
    pub fn read_only_depth(&self) -> bool {
        self.read_only_depth
    }

    /// Whether the view forbids stencil writes.
    pub fn read_only_stencil(&self) -> bool {
        self.read_only_stencil
    }

    /// The elements, rows packed, top row first.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The elements, given back.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The stored bytes of element (`x`, `y`).
    pub fn texel_bytes(&self, x: u32, y: u32) -> Result<&[u8]> {
        let element = self.codec.element_bytes();
        let start = texel_range(
            x,
            y,
            self.width,
            self.height,
            self.row_bytes,
            element,
            "depth-stencil buffer",
        )?;
        self.bytes
            .get(start..start.saturating_add(element))
            .ok_or_else(|| Error::new("depth-stencil buffer", format!("pixel ({x}, {y}) lies past its bytes")))
    }

    /// The stored bytes of element (`x`, `y`), to change.
    fn texel_bytes_mut(&mut self, x: u32, y: u32) -> Result<&mut [u8]> {
        let element = self.codec.element_bytes();
        let start = texel_range(
            x,
            y,
            self.width,
            self.height,
            self.row_bytes,
            element,
            "depth-stencil buffer",
        )?;
        self.bytes
            .get_mut(start..start.saturating_add(element))
            .ok_or_else(|| Error::new("depth-stencil buffer", format!("pixel ({x}, {y}) lies past its bytes")))
    }

    /// The depth (as a float: UNORM depth converted by 3.2.3.5) and stencil (0 for formats without) at (`x`, `y`).
    pub fn read(&self, x: u32, y: u32) -> Result<(f32, u8)> {
        let [depth, stencil, _, _] = self.codec.decode(self.texel_bytes(x, y)?)?;
        let stencil = if self.has_stencil { stencil as u8 } else { 0 };
        Ok((f32::from_bits(depth), stencil))
    }

    /// Writes `depth` at (`x`, `y`), converted to the format: round to nearest for UNORM depth (17.11's "+0.5 and
    /// truncate", the format module's FLOAT -> UNORM), unchanged for float depth. Stencil bits are kept.
    pub fn write_depth(&mut self, x: u32, y: u32, depth: f32) -> Result<()> {
        let codec = self.codec;
        codec.encode_masked([depth.to_bits(), 0, 0, 0], 0b0001, self.texel_bytes_mut(x, y)?)
    }

    /// Writes `stencil` at (`x`, `y`), keeping the depth bits; nothing for a format without stencil.
    pub fn write_stencil(&mut self, x: u32, y: u32, stencil: u8) -> Result<()> {
        if !self.has_stencil {
            return Ok(());
        }
        let codec = self.codec;
        codec.encode_masked([0, u32::from(stencil), 0, 0], 0b0010, self.texel_bytes_mut(x, y)?)
    }

    /// The depth a depth test compares for an incoming `depth`: converted to the buffer's precision and back (17.11),
    /// as [`crate::format::quantize_depth`] gives it, through this buffer's prepared codec.
    pub fn quantize(&self, depth: f32) -> Result<f32> {
        let mut element = [0u8; 8];
        let codec = self.codec;
        codec.encode_masked([depth.to_bits(), 0, 0, 0], 0b0001, &mut element)?;
        Ok(f32::from_bits(codec.decode(&element)?[0]))
    }
}
