//! What a draw hands back: the targets' bytes after it, what it did, and which pixels' coverage depends on rounding;
//! and the write-back of those bytes into the textures, so that the next draw of a sequence starts from them.

use crate::api::draw::DrawState;
use crate::api::enums::{DsvDimension, ResourceDimension, RtvDimension};
use crate::api::resource::{Resource, Texture};
use crate::compare::Image;
use crate::format::{Format, TexelCodec};
use crate::{Error, Result};
use serde::Serialize;
use std::sync::Arc;

/// A target's texels after a draw: raw little-endian elements of `format` (the view's), rows packed, top row first;
/// the view's first slice, or, when the draw's geometry program writes `SV_RenderTargetArrayIndex` (15.15), every
/// slice of the view one after the other ([`super::arrays`]).
/// Depth-stencil formats are in D3D's layout (D24_UNORM_S8_UINT: depth in bits 0..24, stencil in 24..32).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetImage {
    /// The view's format.
    pub format: Format,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// The view's array slices the bytes hold, from its first (1 but for a draw selecting slices).
    pub slices: u32,
    /// The elements.
    pub bytes: Vec<u8>,
}

impl TargetImage {
    /// The image for [`crate::compare`]. A multisampled target's bytes are its sample planes one after the other
    /// ([`crate::api::resource`]'s layout), and array slices follow each other, so its image is the planes (of every
    /// slice) stacked, sample 0's (of the first slice) on top: `width` x `height * samples * slices`, compared plane
    /// by plane.
    pub fn image(&self) -> Result<Image<'_>> {
        Image::new(
            self.format,
            self.width,
            self.height
                .saturating_mul(self.samples())
                .saturating_mul(self.slices.max(1)),
            &self.bytes,
        )
    }

    /// The bytes of array slice `slice` (every sample plane), if the image has it.
    pub fn slice_bytes(&self, slice: u32) -> Option<&[u8]> {
        let size = self
            .bytes
            .len()
            .checked_div(usize::try_from(self.slices.max(1)).ok()?)?;
        let start = size.checked_mul(usize::try_from(slice).ok()?)?;
        self.bytes.get(start..start.checked_add(size)?)
    }

    /// Samples a texel: how many `width` x `height` planes a slice's bytes hold (1 when they hold one, or do not
    /// divide).
    pub fn samples(&self) -> u32 {
        let plane = (self.width as usize)
            .saturating_mul(self.height as usize)
            .saturating_mul(self.bytes_per_texel())
            .saturating_mul(self.slices.max(1) as usize);
        match self.bytes.len().checked_div(plane) {
            Some(n) if n > 1 && self.bytes.len().is_multiple_of(plane) => u32::try_from(n).unwrap_or(1),
            _ => 1,
        }
    }

    /// Bytes per element.
    pub fn bytes_per_texel(&self) -> usize {
        TexelCodec::new(self.format).map_or(0, |c| c.element_bytes())
    }
}

/// What a draw did, counted over all its instances.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DrawStats {
    /// Vertex program invocations (each vertex once per instance).
    pub vertices_shaded: u64,
    /// Primitives (points, lines, triangles: the counts below say triangles for all) the input assembler made (over
    /// all instances).
    pub triangles: u64,
    /// Triangles dropped because every vertex is outside one cull distance (15.4.2), or a vertex has a NaN clip
    /// distance (15.4.1).
    pub distance_culled: u64,
    /// Triangles clipping left nothing of (15.4).
    pub clipped_away: u64,
    /// Triangles with a NaN position (15.4, 15.16.1).
    pub not_a_number: u64,
    /// Triangles with an infinite clip-space position, which 15.4 lets an implementation discard.
    pub infinite: u64,
    /// Triangles of no snapped area, or whose plane holds the eye.
    pub zero_area: u64,
    /// Triangles culled by their facing (15.11).
    pub culled: u64,
    /// Triangles whose pixels were walked (they may cover none).
    pub rasterized: u64,
    /// Pixels (covered lanes) the pixel program ran for; helpers are not counted.
    pub shaded: u64,
    /// Helper lanes run to fill quads (16.13).
    pub helper_invocations: u64,
    /// Covered pixels a clip distance removed (15.4.1).
    pub clip_distance_removed: u64,
    /// Pixels the pixel program discarded (22.5.1).
    pub discarded: u64,
    /// Pixels whose one sample was not covered after the program: sample mask, `oMask` or alpha-to-coverage (17.17,
    /// 16.9.4, 17.18).
    pub coverage_failed: u64,
    /// Pixels that failed the stencil test.
    pub stencil_failed: u64,
    /// Pixels that passed the stencil test and failed the depth test.
    pub depth_failed: u64,
    /// Pixels that passed every test and reached the targets.
    pub written: u64,
    /// The smallest rectangle holding every pixel a primitive covered (in the target and the scissor, 15.7; before
    /// clip distances and every test), as `[x0, y0, x1, y1]` with `x1` and `y1` exclusive; `None` when none was.
    pub covered_bounds: Option<[u32; 4]>,
}

impl DrawStats {
    /// Adds what one band of a draw drawn in bands of rows did: its pixels' counts, and the per-primitive counts
    /// (which every band makes alike) from the first band only.
    pub(super) fn add_band(&mut self, band: &DrawStats, first: bool) {
        let add = |total: &mut u64, part: u64| *total = total.saturating_add(part);
        if first {
            add(&mut self.triangles, band.triangles);
            add(&mut self.distance_culled, band.distance_culled);
            add(&mut self.clipped_away, band.clipped_away);
            add(&mut self.not_a_number, band.not_a_number);
            add(&mut self.infinite, band.infinite);
            add(&mut self.zero_area, band.zero_area);
            add(&mut self.culled, band.culled);
            add(&mut self.rasterized, band.rasterized);
        }
        add(&mut self.shaded, band.shaded);
        add(&mut self.helper_invocations, band.helper_invocations);
        add(&mut self.clip_distance_removed, band.clip_distance_removed);
        add(&mut self.discarded, band.discarded);
        add(&mut self.coverage_failed, band.coverage_failed);
        add(&mut self.stencil_failed, band.stencil_failed);
        add(&mut self.depth_failed, band.depth_failed);
        add(&mut self.written, band.written);
        if let Some([x0, y0, x1, y1]) = band.covered_bounds {
            self.cover(x0, y0, x1, y1);
        }
    }

    /// Grows [`DrawStats::covered_bounds`] to take in the pixels `x0..x1` × `y0..y1`.
    fn cover(&mut self, x0: u32, y0: u32, x1: u32, y1: u32) {
        self.covered_bounds = Some(match self.covered_bounds {
            None => [x0, y0, x1, y1],
            Some([a0, b0, a1, b1]) => [a0.min(x0), b0.min(y0), a1.max(x1), b1.max(y1)],
        });
    }

    /// Grows [`DrawStats::covered_bounds`] to take in the covered lanes of `quad` (helpers are not covered).
    pub(super) fn cover_quad(&mut self, quad: &crate::raster::Quad) {
        for lane in 0..4 {
            if quad.is_covered(lane) {
                let (x, y) = quad.pixel(lane);
                self.cover(x, y, x.saturating_add(1), y.saturating_add(1));
            }
        }
    }
}

/// The result of a draw.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawOutput {
    /// The draw's label.
    pub label: String,
    /// Width of the targets (of the pixel grid the draw covers), in pixels.
    pub width: u32,
    /// Height of the targets, in pixels.
    pub height: u32,
    /// Each bound render target after the draw, by slot.
    pub render_targets: Vec<Option<TargetImage>>,
    /// The depth-stencil buffer after the draw, if one is bound.
    pub depth_stencil: Option<TargetImage>,
    /// What the draw did.
    pub stats: DrawStats,
    /// Per pixel (`width * height`, row by row; with multisampled targets per sample, one such plane per sample,
    /// sample 0's first): whether its coverage depends on rounding at a triangle edge (see the module documentation
    /// of [`crate::draw`]); empty when not asked for.
    pub ambiguous: Vec<bool>,
    /// The stream-output buffers after the draw and the primitives written and needed per stream, when the draw has
    /// a stream-output declaration.
    pub stream_output: Option<super::stream_output::StreamOutputBuffers>,
    /// The pixel program's unordered access views after the draw, by slot.
    pub uavs: Vec<Option<crate::shader::uav::UavContents>>,
    /// Per slot, what of a view's contents depends on the order the pixel program's invocations ran in (5.3.9 orders
    /// none of them; this replay runs them in primitive and quad order).
    pub uav_order: Vec<Option<crate::shader::uav::OrderDependence>>,
}

/// The mip level and first array (or 3D depth) slice a render target view writes: its mip slice and, for arrays and
/// 3D, its first slice (render-target array index 0, 15.15; the others follow it).
pub(super) fn render_target_place(dimension: RtvDimension, mip: u32, first_slice: u32) -> (u32, u32) {
    match dimension {
        RtvDimension::Texture1DArray | RtvDimension::Texture2DArray | RtvDimension::Texture3D => (mip, first_slice),
        // a multisampled texture has one mip (its views have no mip slice)
        RtvDimension::Texture2DMs => (0, 0),
        RtvDimension::Texture2DMsArray => (0, first_slice),
        _ => (mip, 0),
    }
}

/// The mip level and array slice a depth-stencil view writes.
pub(super) fn depth_stencil_place(dimension: DsvDimension, mip: u32, first_slice: u32) -> (u32, u32) {
    match dimension {
        DsvDimension::Texture1DArray | DsvDimension::Texture2DArray => (mip, first_slice),
        DsvDimension::Texture2DMs => (0, 0),
        DsvDimension::Texture2DMsArray => (0, first_slice),
        _ => (mip, 0),
    }
}

/// Where the bytes of mip `mip`, slice `slice` of `texture` lie: the subresource index and the byte range in it (a
/// 3D texture's depth slice is part of its mip's subresource).
fn slice_range(texture: &Texture, mip: u32, slice: u32) -> Result<(usize, std::ops::Range<usize>)> {
    let shape = &texture.shape;
    let layout = shape.mip_layout(mip)?;
    let what = || Error::new("target", format!("mip {mip} slice {slice} is not in the texture"));
    if mip >= shape.mip_levels {
        return Err(what());
    }
    let (array_slice, depth_slice) = if shape.dimension == ResourceDimension::Texture3D {
        (0, u64::from(slice))
    } else {
        (slice, 0)
    };
    if array_slice >= shape.array_size || depth_slice >= layout.slices {
        return Err(what());
    }
    let index = array_slice
        .checked_mul(shape.mip_levels)
        .and_then(|i| i.checked_add(mip))
        .and_then(|i| usize::try_from(i).ok())
        .ok_or_else(what)?;
    // a 3D mip's depth slice, or a 2D subresource's every sample plane
    let slice_bytes = if shape.dimension == ResourceDimension::Texture3D {
        layout.row_bytes.saturating_mul(layout.rows)
    } else {
        layout.bytes
    };
    let start = usize::try_from(slice_bytes.saturating_mul(depth_slice)).map_err(|_| what())?;
    let len = usize::try_from(slice_bytes).map_err(|_| what())?;
    Ok((index, start..start.saturating_add(len)))
}

/// The bytes of every sample of texel (`x`, `y`) of mip `mip`, slice `slice` of `texture`, elements of `element`
/// bytes, sample 0's first: a one-texel target of the texture's sample count.
pub(super) fn samples_of_texel(
    texture: &Texture,
    mip: u32,
    slice: u32,
    x: u32,
    y: u32,
    element: usize,
) -> Result<Vec<u8>> {
    let (index, range) = slice_range(texture, mip, slice)?;
    let layout = texture.shape.mip_layout(mip)?;
    let [width, _, _] = texture.shape.mip_size(mip);
    let offset = u64::from(y)
        .saturating_mul(u64::from(width))
        .saturating_add(u64::from(x))
        .saturating_mul(element as u64);
    let samples = layout.samples.min(32);
    let mut bytes = Vec::with_capacity(element.saturating_mul(samples as usize));
    let data = texture.subresources.get(index).map(|d| &d[..]).unwrap_or(&[]);
    for sample in 0..samples {
        let start = usize::try_from(layout.plane_bytes.saturating_mul(sample).saturating_add(offset))
            .ok()
            .and_then(|o| range.start.checked_add(o))
            .filter(|s| s.saturating_add(element) <= range.end);
        let texel = start
            .and_then(|s| data.get(s..s.saturating_add(element)))
            .ok_or_else(|| Error::new("target", format!("pixel ({x}, {y}) is outside mip {mip} slice {slice}")))?;
        bytes.extend_from_slice(texel);
    }
    Ok(bytes)
}

/// `texture` with mip `mip`, slice `slice` holding `bytes`.
fn with_slice(texture: &Texture, mip: u32, slice: u32, bytes: &[u8]) -> Result<Texture> {
    let (index, range) = slice_range(texture, mip, slice)?;
    let mut subresources = texture.subresources.clone();
    let place = subresources
        .get_mut(index)
        .ok_or_else(|| Error::new("target", format!("no subresource {index}")))?;
    let (Some(head), Some(tail)) = (place.get(..range.start), place.get(range.end..)) else {
        return Err(Error::new(
            "target",
            format!("no mip {mip} slice {slice} in subresource {index}"),
        ));
    };
    if range.len() != bytes.len() {
        return Err(Error::new(
            "target",
            format!(
                "{} bytes do not fill mip {mip} slice {slice} ({} bytes)",
                bytes.len(),
                range.len()
            ),
        ));
    }
    // one allocation and one copy: the bytes before the slice, the slice's new bytes, the bytes after it
    let data: Arc<[u8]> = head.iter().chain(bytes).chain(tail).copied().collect();
    *place = data;
    Texture::new(texture.shape, subresources)
}

/// `texture` with mip `mip`'s slices from `first` on holding the slices of `image`, in order.
fn with_slices(texture: &Texture, mip: u32, first: u32, image: &TargetImage) -> Result<Texture> {
    let mut texture = texture.clone();
    for slice in 0..image.slices.max(1) {
        let bytes = image
            .slice_bytes(slice)
            .ok_or_else(|| Error::new("target", format!("the image has no slice {slice}")))?;
        texture = with_slice(&texture, mip, first.saturating_add(slice), bytes)?;
    }
    Ok(texture)
}

/// The resources of a draw's targets after it: for each render target slot and the depth-stencil view, the resource
/// the view sees with the draw's output written into the slice it writes.
#[derive(Clone, Debug, Default)]
pub struct UpdatedTargets {
    /// By render target slot: (the resource before, the resource after).
    pub render_targets: Vec<Option<(Arc<Resource>, Arc<Resource>)>>,
    /// The depth-stencil view's resource before and after.
    pub depth_stencil: Option<(Arc<Resource>, Arc<Resource>)>,
}

impl UpdatedTargets {
    /// The resource that replaces `resource` (the same `Arc`), if any.
    pub fn replacement(&self, resource: &Arc<Resource>) -> Option<Arc<Resource>> {
        self.render_targets
            .iter()
            .flatten()
            .chain(self.depth_stencil.as_ref())
            .find(|(before, _)| Arc::ptr_eq(before, resource))
            .map(|(_, after)| after.clone())
    }
}

impl DrawOutput {
    /// The textures `state`'s views see, with this output (of a draw of `state`) written into them.
    pub fn updated_targets(&self, state: &DrawState) -> Result<UpdatedTargets> {
        let mut updated = UpdatedTargets::default();
        for (view, image) in state.render_targets.iter().zip(&self.render_targets) {
            let entry = match (view, image) {
                (Some(view), Some(image)) => {
                    let texture = view
                        .texture()
                        .ok_or_else(|| state.error("output", "a render target is a buffer"))?;
                    let (mip, first) =
                        render_target_place(view.desc.dimension, view.desc.mip_slice, view.desc.first_array_slice);
                    let texture = with_slices(texture, mip, first, image)?;
                    Some((view.resource.clone(), Arc::new(Resource::Texture(texture))))
                }
                _ => None,
            };
            updated.render_targets.push(entry);
        }
        if let (Some(view), Some(image)) = (&state.depth_stencil_view, &self.depth_stencil) {
            let texture = view
                .texture()
                .ok_or_else(|| state.error("output", "the depth-stencil view sees a buffer"))?;
            let (mip, first) =
                depth_stencil_place(view.desc.dimension, view.desc.mip_slice, view.desc.first_array_slice);
            let texture = with_slices(texture, mip, first, image)?;
            updated.depth_stencil = Some((view.resource.clone(), Arc::new(Resource::Texture(texture))));
        }
        Ok(updated)
    }
}

/// `state` with every target view whose resource `updated` replaces seeing the replacement: how a sequence of draws
/// hands each draw the targets as the previous one left them.
pub fn with_targets(state: &DrawState, updated: &UpdatedTargets) -> DrawState {
    let mut state = state.clone();
    for view in state.render_targets.iter_mut().flatten() {
        if let Some(after) = updated.replacement(&view.resource) {
            view.resource = after;
        }
    }
    if let Some(view) = state.depth_stencil_view.as_mut()
        && let Some(after) = updated.replacement(&view.resource)
    {
        view.resource = after;
    }
    state
}
