//! What the output merger writes: render targets and the depth-stencil buffer, each one mip level of one array slice
//! (or one depth slice of a 3D texture) of a texture, held as its bytes in the view's format, rows packed, top row
//! first (the layout of [`crate::api::resource`]). A multisampled target (a `TEXTURE2DMS` or `TEXTURE2DMSARRAY` view)
//! holds all its samples as the resource module lays them out: `samples` planes, sample 0's first, each a
//! single-sampled image, so that sample `s` of texel (`x`, `y`) is at `s * plane_bytes + y * row_bytes + x *
//! texel_bytes`. Built from a view and the texture's contents before the draw; the bytes after the draw (every
//! plane) are handed back with [`RenderTarget::into_bytes`] / [`DepthStencilTarget::into_bytes`].

use crate::api::enums::{DsvDimension, ResourceDimension, RtvDimension};
use crate::api::resource::{DepthStencilViewDesc, RenderTargetViewDesc, Texture};
use crate::format::{Format, NumericKind, ShaderType, Texel, TexelCodec, WriteMask};
use crate::{Error, Result};
use std::ops::Range;

/// The bytes of one view-addressable slice of a texture: mip `level`, array slice or 3D depth slice `slice`.
fn view_slice(texture: &Texture, level: u32, slice: u32, what: &str) -> Result<Vec<u8>> {
    let shape = &texture.shape;
    if level >= shape.mip_levels {
        return Err(Error::new(
            what,
            format!("mip slice {level} of a texture with {} mip levels", shape.mip_levels),
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

/// Bytes per row and per sample plane of a `width` x `height` surface of `codec`'s format with `samples` samples a
/// texel (1 to 32), after checking that `len` bytes hold exactly that.
fn surface_layout(
    codec: &TexelCodec,
    width: u32,
    height: u32,
    samples: u32,
    len: usize,
    what: &str,
) -> Result<(usize, usize)> {
    if !(1..=32).contains(&samples) {
        return Err(Error::new(what, format!("{samples} samples per texel (1 to 32)")));
    }
    let element = codec.element_bytes();
    let row = usize::try_from(width).ok().and_then(|w| w.checked_mul(element));
    let plane = row.and_then(|r| usize::try_from(height).ok().and_then(|h| h.checked_mul(r)));
    let total = plane.and_then(|p| usize::try_from(samples).ok().and_then(|s| s.checked_mul(p)));
    match (row, plane, total) {
        (Some(row), Some(plane), Some(total)) if total == len && width > 0 && height > 0 => Ok((row, plane)),
        _ => Err(Error::new(
            what,
            format!(
                "{len} bytes where {width}x{height} texels of {}{} take {}",
                codec.format(),
                if samples > 1 {
                    format!(" with {samples} samples")
                } else {
                    String::new()
                },
                total.map_or_else(|| "more than memory holds".to_owned(), |t| t.to_string())
            ),
        )),
    }
}

/// Where a surface's texels are: its size, rows, sample planes and element size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Surface {
    width: u32,
    height: u32,
    samples: u32,
    row_bytes: usize,
    plane_bytes: usize,
    element: usize,
}

impl Surface {
    /// The byte offset of sample `sample` of texel (`x`, `y`), or an error naming the surface (`what`).
    fn offset(&self, x: u32, y: u32, sample: u32, what: &str) -> Result<usize> {
        let Surface { width, height, .. } = *self;
        if x >= width || y >= height {
            return Err(Error::new(
                what,
                format!("pixel ({x}, {y}) is outside the {width}x{height} target"),
            ));
        }
        if sample >= self.samples {
            return Err(Error::new(
                what,
                format!("sample {sample} of a target of {} samples", self.samples),
            ));
        }
        // x < width, y < height, sample < samples, and the whole surface fits in usize (checked at construction)
        let offset = (sample as usize).checked_mul(self.plane_bytes).and_then(|p| {
            p.checked_add((y as usize).checked_mul(self.row_bytes)?)?
                .checked_add((x as usize).checked_mul(self.element)?)
        });
        offset.ok_or_else(|| Error::new(what, format!("pixel ({x}, {y}) has no offset")))
    }
}

impl Surface {
    /// The surface of the rows `ranges` (each `top..bottom`, inside this one) stacked in that order, or `None` if
    /// one does not lie inside it.
    fn rows(&self, ranges: &[(u32, u32)]) -> Option<Surface> {
        let mut height = 0u32;
        for &(top, bottom) in ranges {
            if top > bottom || bottom > self.height {
                return None;
            }
            height = height.checked_add(bottom.wrapping_sub(top))?;
        }
        Some(Surface {
            height,
            plane_bytes: self.row_bytes.checked_mul(height as usize)?,
            ..*self
        })
    }

    /// For each sample plane and each of `ranges` (the rows `band` stacks), the byte range of those rows in this
    /// surface's bytes and in `band`'s.
    fn band_ranges<'r>(
        &'r self,
        band: &'r Surface,
        ranges: &'r [(u32, u32)],
    ) -> impl Iterator<Item = (Range<usize>, Range<usize>)> + 'r {
        (0..self.samples as usize).flat_map(move |sample| {
            let mut stacked = sample.saturating_mul(band.plane_bytes);
            ranges.iter().map(move |&(top, bottom)| {
                let length = (bottom.saturating_sub(top) as usize).saturating_mul(self.row_bytes);
                let whole = sample
                    .saturating_mul(self.plane_bytes)
                    .saturating_add((top as usize).saturating_mul(self.row_bytes));
                let part = stacked;
                stacked = stacked.saturating_add(length);
                (whole..whole.saturating_add(length), part..part.saturating_add(length))
            })
        })
    }
}

/// The rows `ranges` of `bytes` (laid out as `surface`) stacked as a surface of their own, or an error naming `what`.
fn crop_rows(surface: &Surface, bytes: &[u8], ranges: &[(u32, u32)], what: &str) -> Result<(Surface, Vec<u8>)> {
    let outside = || {
        Error::new(
            what,
            format!("rows {ranges:?} are not inside the {} rows", surface.height),
        )
    };
    let band = surface.rows(ranges).ok_or_else(outside)?;
    let mut out = Vec::new();
    out.try_reserve_exact(band.plane_bytes.saturating_mul(surface.samples as usize))
        .map_err(|_| Error::of_kind(crate::error::ErrorKind::Budget, what, "no memory for a band of rows"))?;
    for (whole, _) in surface.band_ranges(&band, ranges) {
        out.extend_from_slice(bytes.get(whole).ok_or_else(outside)?);
    }
    Ok((band, out))
}

/// Writes `band_bytes` (laid out as `band`: the rows `ranges` of `surface` stacked) back into `bytes`.
fn put_rows(
    surface: &Surface,
    bytes: &mut [u8],
    band: &Surface,
    band_bytes: &[u8],
    ranges: &[(u32, u32)],
    what: &str,
) -> Result<()> {
    if surface.rows(ranges).as_ref() != Some(band) {
        return Err(Error::new(what, "a band of other rows or another surface"));
    }
    let outside = || Error::new(what, format!("the rows {ranges:?} are not inside the target"));
    for (whole, part) in surface.band_ranges(band, ranges) {
        bytes
            .get_mut(whole)
            .ok_or_else(outside)?
            .copy_from_slice(band_bytes.get(part).ok_or_else(outside)?);
    }
    Ok(())
}

/// The surface of a target of `codec`'s format, `width` x `height`, `samples` a texel, held in `len` bytes.
fn surface(codec: &TexelCodec, width: u32, height: u32, samples: u32, len: usize, what: &str) -> Result<Surface> {
    let (row_bytes, plane_bytes) = surface_layout(codec, width, height, samples, len, what)?;
    Ok(Surface {
        width,
        height,
        samples,
        row_bytes,
        plane_bytes,
        element: codec.element_bytes(),
    })
}

/// The array slice a view of `dimension` writes and the sample count it needs: a multisampled view (`ms`) sees a
/// texture of more than one sample and a single-sampled one a texture of one (5.2: `TEXTURE2DMS` views exist for
/// multisampled resources only).
fn check_samples(texture: &Texture, ms: bool, what: &str) -> Result<()> {
    let samples = texture.shape.sample_count;
    if ms != (samples > 1) {
        return Err(Error::new(
            what,
            if ms {
                "a multisampled view of a texture of one sample".to_owned()
            } else {
                format!("a single-sampled view of a texture of {samples} samples")
            },
        ));
    }
    Ok(())
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

/// A render target: a `width` x `height` surface of texels in one colour format, with one or more samples a texel.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderTarget {
    /// How texels decode and encode.
    codec: TexelCodec,
    /// Where the texels are.
    surface: Surface,
    /// The texels, rows packed, top row first, sample planes one after the other.
    bytes: Vec<u8>,
}

impl RenderTarget {
    /// A render target of `format` holding `bytes` (exactly `width * height` texels).
    pub fn new(format: Format, width: u32, height: u32, bytes: Vec<u8>) -> Result<RenderTarget> {
        RenderTarget::multisampled(format, width, height, 1, bytes)
    }

    /// A render target of `format` with `samples` samples a texel (1 to 32) holding `bytes`: `samples` planes of
    /// `width * height` texels, sample 0's first.
    pub fn multisampled(format: Format, width: u32, height: u32, samples: u32, bytes: Vec<u8>) -> Result<RenderTarget> {
        if !is_renderable(format) {
            return Err(Error::new(
                "render target",
                format!("{format} is not a render target format"),
            ));
        }
        let codec = TexelCodec::new(format)?;
        let surface = surface(&codec, width, height, samples, bytes.len(), "render target")?;
        Ok(RenderTarget { codec, surface, bytes })
    }

    /// The rows `ranges` (each `top..bottom`) stacked as a target of their own (a band a thread draws;
    /// [`RenderTarget::put_rows`] writes it back).
    pub(crate) fn rows(&self, ranges: &[(u32, u32)]) -> Result<RenderTarget> {
        let (surface, bytes) = crop_rows(&self.surface, &self.bytes, ranges, "render target")?;
        Ok(RenderTarget {
            codec: self.codec,
            surface,
            bytes,
        })
    }

    /// Writes `band` (made by [`RenderTarget::rows`] of `ranges`) back.
    pub(crate) fn put_rows(&mut self, band: &RenderTarget, ranges: &[(u32, u32)]) -> Result<()> {
        put_rows(
            &self.surface,
            &mut self.bytes,
            &band.surface,
            &band.bytes,
            ranges,
            "render target",
        )
    }

    /// The surface a render target view writes, with the texture's current contents (5.2, 17.14): mip `mip_slice`,
    /// array slice `first_array_slice` (for a 3D texture, that depth slice). A draw without a geometry program writes
    /// render target array index 0, the view's first slice. A `TEXTURE2DMS` view writes every sample of the
    /// texture's one subresource, a `TEXTURE2DMSARRAY` view those of slice `first_array_slice` (its mip slice is
    /// unused: a multisampled texture has one mip). Buffer views are refused.
    pub fn from_view(texture: &Texture, view: &RenderTargetViewDesc) -> Result<RenderTarget> {
        let what = "render target view";
        let dimension_fits = matches!(
            (view.dimension, texture.shape.dimension),
            (
                RtvDimension::Texture1D | RtvDimension::Texture1DArray,
                ResourceDimension::Texture1D
            ) | (
                RtvDimension::Texture2D
                    | RtvDimension::Texture2DArray
                    | RtvDimension::Texture2DMs
                    | RtvDimension::Texture2DMsArray,
                ResourceDimension::Texture2D
            ) | (RtvDimension::Texture3D, ResourceDimension::Texture3D)
        );
        if !dimension_fits {
            return Err(Error::new(
                what,
                format!(
                    "a {} view of a {} resource is not drawn (buffer views are not supported)",
                    view.dimension, texture.shape.dimension
                ),
            ));
        }
        let ms = matches!(
            view.dimension,
            RtvDimension::Texture2DMs | RtvDimension::Texture2DMsArray
        );
        check_samples(texture, ms, what)?;
        let format = view_format(texture, view.format, what)?;
        let slice = match view.dimension {
            RtvDimension::Texture1DArray
            | RtvDimension::Texture2DArray
            | RtvDimension::Texture2DMsArray
            | RtvDimension::Texture3D => view.first_array_slice,
            _ => 0,
        };
        let mip = if ms { 0 } else { view.mip_slice };
        let bytes = view_slice(texture, mip, slice, what)?;
        let [width, height, _] = texture.shape.mip_size(mip);
        RenderTarget::multisampled(format, width, height, texture.shape.sample_count.max(1), bytes)
            .map_err(|e| e.within(what))
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
        self.surface.width
    }

    /// Height in texels.
    pub fn height(&self) -> u32 {
        self.surface.height
    }

    /// Samples a texel (1 without multisampling).
    pub fn samples(&self) -> u32 {
        self.surface.samples
    }

    /// The texels, rows packed, top row first, sample planes one after the other.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The texels, given back.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The stored bytes of texel (`x`, `y`) (its sample 0).
    pub fn texel_bytes(&self, x: u32, y: u32) -> Result<&[u8]> {
        self.sample_bytes(x, y, 0)
    }

    /// The stored bytes of sample `sample` of texel (`x`, `y`).
    pub fn sample_bytes(&self, x: u32, y: u32, sample: u32) -> Result<&[u8]> {
        let start = self.surface.offset(x, y, sample, "render target")?;
        self.bytes
            .get(start..start.saturating_add(self.surface.element))
            .ok_or_else(|| Error::new("render target", format!("pixel ({x}, {y}) lies past its bytes")))
    }

    /// The stored bytes of sample `sample` of texel (`x`, `y`), to change.
    pub(crate) fn sample_bytes_mut(&mut self, x: u32, y: u32, sample: u32) -> Result<&mut [u8]> {
        let start = self.surface.offset(x, y, sample, "render target")?;
        self.bytes
            .get_mut(start..start.saturating_add(self.surface.element))
            .ok_or_else(|| Error::new("render target", format!("pixel ({x}, {y}) lies past its bytes")))
    }

    /// Texel (`x`, `y`) (its sample 0) as the words a shader reads (3.2 conversions; sRGB decoded to linear).
    pub fn read(&self, x: u32, y: u32) -> Result<Texel> {
        self.read_sample(x, y, 0)
    }

    /// Sample `sample` of texel (`x`, `y`) as the words a shader reads.
    pub fn read_sample(&self, x: u32, y: u32, sample: u32) -> Result<Texel> {
        self.codec.decode(self.sample_bytes(x, y, sample)?)
    }

    /// Writes the components of `texel` in `mask` (bit 0 = red) to texel (`x`, `y`) (its sample 0), converted to
    /// the format (3.2).
    pub fn write(&mut self, x: u32, y: u32, texel: Texel, mask: WriteMask) -> Result<()> {
        self.write_sample(x, y, 0, texel, mask)
    }

    /// Writes the components of `texel` in `mask` to sample `sample` of texel (`x`, `y`).
    pub fn write_sample(&mut self, x: u32, y: u32, sample: u32, texel: Texel, mask: WriteMask) -> Result<()> {
        let codec = self.codec;
        codec.encode_masked(texel, mask, self.sample_bytes_mut(x, y, sample)?)
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
    /// Where the elements are.
    surface: Surface,
    /// Whether the format has stencil bits.
    has_stencil: bool,
    /// The view forbids depth writes (`D3D11_DSV_READ_ONLY_DEPTH`).
    read_only_depth: bool,
    /// The view forbids stencil writes (`D3D11_DSV_READ_ONLY_STENCIL`).
    read_only_stencil: bool,
    /// The elements, rows packed, top row first, sample planes one after the other.
    bytes: Vec<u8>,
}

impl DepthStencilTarget {
    /// A depth-stencil buffer of `format` holding `bytes` (exactly `width * height` elements), writable.
    pub fn new(format: Format, width: u32, height: u32, bytes: Vec<u8>) -> Result<DepthStencilTarget> {
        DepthStencilTarget::multisampled(format, width, height, 1, bytes)
    }

    /// A depth-stencil buffer of `format` with `samples` samples a texel (1 to 32) holding `bytes`: `samples`
    /// planes of `width * height` elements, sample 0's first; writable.
    pub fn multisampled(
        format: Format,
        width: u32,
        height: u32,
        samples: u32,
        bytes: Vec<u8>,
    ) -> Result<DepthStencilTarget> {
        if !format.is_depth() {
            return Err(Error::new(
                "depth-stencil buffer",
                format!("{format} is not a depth-stencil format"),
            ));
        }
        let codec = TexelCodec::new(format)?;
        let surface = surface(&codec, width, height, samples, bytes.len(), "depth-stencil buffer")?;
        Ok(DepthStencilTarget {
            codec,
            surface,
            has_stencil: format.info().kind == NumericKind::DepthStencil,
            read_only_depth: false,
            read_only_stencil: false,
            bytes,
        })
    }

    /// The rows `ranges` (each `top..bottom`) stacked as a buffer of their own (a band a thread draws;
    /// [`DepthStencilTarget::put_rows`] writes it back).
    pub(crate) fn rows(&self, ranges: &[(u32, u32)]) -> Result<DepthStencilTarget> {
        let (surface, bytes) = crop_rows(&self.surface, &self.bytes, ranges, "depth-stencil buffer")?;
        Ok(DepthStencilTarget {
            codec: self.codec,
            surface,
            has_stencil: self.has_stencil,
            read_only_depth: self.read_only_depth,
            read_only_stencil: self.read_only_stencil,
            bytes,
        })
    }

    /// Writes `band` (made by [`DepthStencilTarget::rows`] of `ranges`) back.
    pub(crate) fn put_rows(&mut self, band: &DepthStencilTarget, ranges: &[(u32, u32)]) -> Result<()> {
        put_rows(
            &self.surface,
            &mut self.bytes,
            &band.surface,
            &band.bytes,
            ranges,
            "depth-stencil buffer",
        )
    }

    /// The same buffer with the view's read-only flags (17.13).
    #[must_use]
    pub fn read_only(mut self, depth: bool, stencil: bool) -> DepthStencilTarget {
        self.read_only_depth = depth;
        self.read_only_stencil = stencil;
        self
    }

    /// The surface a depth-stencil view tests and writes, with the texture's current contents and the view's
    /// read-only flags (5.2, 17.13): mip `mip_slice`, array slice `first_array_slice`; for a `TEXTURE2DMS` view every
    /// sample of the texture's one subresource, for a `TEXTURE2DMSARRAY` view those of slice `first_array_slice`.
    pub fn from_view(texture: &Texture, view: &DepthStencilViewDesc) -> Result<DepthStencilTarget> {
        let what = "depth-stencil view";
        let dimension_fits = matches!(
            (view.dimension, texture.shape.dimension),
            (
                DsvDimension::Texture1D | DsvDimension::Texture1DArray,
                ResourceDimension::Texture1D
            ) | (
                DsvDimension::Texture2D
                    | DsvDimension::Texture2DArray
                    | DsvDimension::Texture2DMs
                    | DsvDimension::Texture2DMsArray,
                ResourceDimension::Texture2D
            )
        );
        if !dimension_fits {
            return Err(Error::new(
                what,
                format!(
                    "a {} view of a {} resource is not drawn",
                    view.dimension, texture.shape.dimension
                ),
            ));
        }
        let ms = matches!(
            view.dimension,
            DsvDimension::Texture2DMs | DsvDimension::Texture2DMsArray
        );
        check_samples(texture, ms, what)?;
        let format = view_format(texture, view.format, what)?;
        let slice = match view.dimension {
            DsvDimension::Texture1DArray | DsvDimension::Texture2DArray | DsvDimension::Texture2DMsArray => {
                view.first_array_slice
            }
            _ => 0,
        };
        let mip = if ms { 0 } else { view.mip_slice };
        let bytes = view_slice(texture, mip, slice, what)?;
        let [width, height, _] = texture.shape.mip_size(mip);
        Ok(
            DepthStencilTarget::multisampled(format, width, height, texture.shape.sample_count.max(1), bytes)
                .map_err(|e| e.within(what))?
                .read_only(view.read_only_depth, view.read_only_stencil),
        )
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.codec.format()
    }

    /// Width in texels.
    pub fn width(&self) -> u32 {
        self.surface.width
    }

    /// Height in texels.
    pub fn height(&self) -> u32 {
        self.surface.height
    }

    /// Samples a texel (1 without multisampling).
    pub fn samples(&self) -> u32 {
        self.surface.samples
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

    /// The stored bytes of element (`x`, `y`) (its sample 0).
    pub fn texel_bytes(&self, x: u32, y: u32) -> Result<&[u8]> {
        self.sample_bytes(x, y, 0)
    }

    /// The stored bytes of sample `sample` of element (`x`, `y`).
    pub fn sample_bytes(&self, x: u32, y: u32, sample: u32) -> Result<&[u8]> {
        let start = self.surface.offset(x, y, sample, "depth-stencil buffer")?;
        self.bytes
            .get(start..start.saturating_add(self.surface.element))
            .ok_or_else(|| Error::new("depth-stencil buffer", format!("pixel ({x}, {y}) lies past its bytes")))
    }

    /// The stored bytes of sample `sample` of element (`x`, `y`), to change.
    fn sample_bytes_mut(&mut self, x: u32, y: u32, sample: u32) -> Result<&mut [u8]> {
        let start = self.surface.offset(x, y, sample, "depth-stencil buffer")?;
        self.bytes
            .get_mut(start..start.saturating_add(self.surface.element))
            .ok_or_else(|| Error::new("depth-stencil buffer", format!("pixel ({x}, {y}) lies past its bytes")))
    }

    /// The depth (as a float: UNORM depth converted by 3.2.3.5) and stencil (0 for formats without) at (`x`, `y`)
    /// (its sample 0).
    pub fn read(&self, x: u32, y: u32) -> Result<(f32, u8)> {
        self.read_sample(x, y, 0)
    }

    /// The depth and stencil of sample `sample` at (`x`, `y`).
    pub fn read_sample(&self, x: u32, y: u32, sample: u32) -> Result<(f32, u8)> {
        let [depth, stencil, _, _] = self.codec.decode(self.sample_bytes(x, y, sample)?)?;
        let stencil = if self.has_stencil { stencil as u8 } else { 0 };
        Ok((f32::from_bits(depth), stencil))
    }

    /// Writes `depth` at (`x`, `y`) (its sample 0), converted to the format: round to nearest for UNORM depth
    /// (17.11's "+0.5 and truncate", the format module's FLOAT -> UNORM), unchanged for float depth. Stencil bits are
    /// kept.
    pub fn write_depth(&mut self, x: u32, y: u32, depth: f32) -> Result<()> {
        self.write_sample_depth(x, y, 0, depth)
    }

    /// Writes `depth` to sample `sample` at (`x`, `y`), as [`DepthStencilTarget::write_depth`].
    pub fn write_sample_depth(&mut self, x: u32, y: u32, sample: u32, depth: f32) -> Result<()> {
        let codec = self.codec;
        codec.encode_masked([depth.to_bits(), 0, 0, 0], 0b0001, self.sample_bytes_mut(x, y, sample)?)
    }

    /// Writes `stencil` at (`x`, `y`) (its sample 0), keeping the depth bits; nothing for a format without stencil.
    pub fn write_stencil(&mut self, x: u32, y: u32, stencil: u8) -> Result<()> {
        self.write_sample_stencil(x, y, 0, stencil)
    }

    /// Writes `stencil` to sample `sample` at (`x`, `y`), as [`DepthStencilTarget::write_stencil`].
    pub fn write_sample_stencil(&mut self, x: u32, y: u32, sample: u32, stencil: u8) -> Result<()> {
        if !self.has_stencil {
            return Ok(());
        }
        let codec = self.codec;
        codec.encode_masked(
            [0, u32::from(stencil), 0, 0],
            0b0010,
            self.sample_bytes_mut(x, y, sample)?,
        )
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
