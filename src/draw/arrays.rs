//! Per-primitive selection of the viewport, the scissor rectangle and the render-target array slice (15.8.1,
//! 15.15), from the `SV_ViewportArrayIndex` and `SV_RenderTargetArrayIndex` a geometry program writes at a
//! primitive's leading vertex (8.14, 13.4).
//!
//! - **Viewport and scissor** (15.8.1): the index picks viewport and scissor rectangle `index` of the 16 a pipeline
//!   holds; an index outside `[0, 15]` picks 0. A slot `RSSetViewports` / `RSSetScissorRects` did not set is a
//!   viewport of all zeros (15.6: nothing is drawn) and an empty scissor (15.7). Without a geometry program writing
//!   the index, every primitive uses slot 0.
//! - **Array slice** (15.15, 5.2): the index is relative to each view's first slice; an index at or past the view's
//!   array size (its effective size: the slices it asks for that the texture has) writes the view's first slice, "the
//!   0-th RenderTarget". This holds for every bound render target view and for the depth-stencil view (17.16), each
//!   by its own array size. A `TEXTURE3D` render target view's slices are its depth slices.
//! - The pixel program reads both indices as the geometry program wrote them, unclamped (15.8.1, 15.15): they are
//!   linked as any other output ([`super::link`]).
//!
//! Only a draw whose geometry program writes an index does this work: without `SV_RenderTargetArrayIndex` every
//! primitive writes each view's first slice, which is all the output merger holds and all the draw's output gives
//! ([`TargetImage::slices`] 1); with it, the draw holds every slice of each view and gives them all. Without
//! `SV_ViewportArrayIndex` every primitive goes through viewport and scissor 0.

use crate::api::draw::DrawState;
use crate::api::enums::{DsvDimension, ResourceDimension, RtvDimension};
use crate::api::limits::{RENDER_TARGET_SLOTS, VIEWPORT_SLOTS};
use crate::api::resource::{DepthStencilViewDesc, RenderTargetViewDesc, Texture};
use crate::output_merger::{DepthStencilTarget, OutputMerger, RenderTarget, Targets};
use crate::{Error, Result};

use super::output::TargetImage;

/// The per-primitive indices a geometry program writes at the leading vertex (8.14); 0 where it writes none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ArrayIndices {
    /// `SV_RenderTargetArrayIndex` (15.15).
    pub render_target: u32,
    /// `SV_ViewportArrayIndex` (15.8.1).
    pub viewport: u32,
}

/// The viewport and scissor slot `index` selects (15.8.1): `index` itself within `[0, 15]`, else 0.
pub fn viewport_slot(index: u32) -> usize {
    usize::try_from(index)
        .ok()
        .filter(|&slot| slot < VIEWPORT_SLOTS)
        .unwrap_or(0)
}

/// The slice, counted from the view's first, that render-target array index `index` writes in a view of `slices`
/// array slices (15.15, 5.2): `index` when it is below `slices`, else 0.
pub fn array_slice(index: u32, slices: u32) -> u32 {
    if index < slices { index } else { 0 }
}

/// The slices a view of `first` and `asked` slices sees of a texture of `available` ones: what it asks for that the
/// texture has (5.2), at least 1 (the view's first slice, which the draw checks exists).
fn effective_slices(first: u32, asked: u32, available: u32) -> u32 {
    asked.min(available.saturating_sub(first)).max(1)
}

/// The array slices a render target view writes (5.2): its array size for array views, its depth-slice count
/// (`WSize`) for a `TEXTURE3D` view, 1 otherwise.
pub fn render_target_slices(texture: &Texture, view: &RenderTargetViewDesc) -> u32 {
    let shape = &texture.shape;
    match view.dimension {
        RtvDimension::Texture1DArray | RtvDimension::Texture2DArray | RtvDimension::Texture2DMsArray => {
            effective_slices(view.first_array_slice, view.array_size, shape.array_size)
        }
        RtvDimension::Texture3D if shape.dimension == ResourceDimension::Texture3D => {
            let [_, _, depth] = shape.mip_size(view.mip_slice);
            effective_slices(view.first_array_slice, view.array_size, depth)
        }
        _ => 1,
    }
}

/// The array slices a depth-stencil view writes (5.2): its array size for array views, 1 otherwise.
pub fn depth_stencil_slices(texture: &Texture, view: &DepthStencilViewDesc) -> u32 {
    match view.dimension {
        DsvDimension::Texture1DArray | DsvDimension::Texture2DArray | DsvDimension::Texture2DMsArray => {
            effective_slices(view.first_array_slice, view.array_size, texture.shape.array_size)
        }
        _ => 1,
    }
}

/// The bound views' array sizes, by render target slot, and the depth-stencil view's (1 for an unbound slot).
pub fn view_slices(state: &DrawState) -> ([u32; RENDER_TARGET_SLOTS], u32) {
    let mut render_targets = [1; RENDER_TARGET_SLOTS];
    for (count, view) in render_targets.iter_mut().zip(&state.render_targets) {
        if let Some(view) = view
            && let Some(texture) = view.texture()
        {
            *count = render_target_slices(texture, &view.desc);
        }
    }
    let depth = state
        .depth_stencil_view
        .as_ref()
        .and_then(|view| view.texture().map(|texture| depth_stencil_slices(texture, &view.desc)))
        .unwrap_or(1);
    (render_targets, depth)
}

/// Whether render-target array index `index` writes every view's first slice.
pub fn writes_first_slices(index: u32, slices: &([u32; RENDER_TARGET_SLOTS], u32)) -> bool {
    let (render_targets, depth) = slices;
    render_targets
        .iter()
        .chain(std::iter::once(depth))
        .all(|&count| array_slice(index, count) == 0)
}

/// One view's slices other than the one the output merger holds, and which that is.
#[derive(Debug)]
struct ViewSlices<T> {
    /// By slice from the view's first: the target, `None` for the one the output merger holds now.
    slices: Vec<Option<T>>,
    /// The slice the output merger holds.
    current: u32,
}

impl<T> ViewSlices<T> {
    /// Puts slice `want` (within the view: [`array_slice`] chose it) where the output merger holds the view,
    /// keeping the one it held.
    fn select(&mut self, held: &mut Option<T>, want: u32) {
        if want == self.current {
            return;
        }
        let Some(incoming) = usize::try_from(want)
            .ok()
            .and_then(|w| self.slices.get_mut(w))
            .and_then(Option::take)
        else {
            return;
        };
        let outgoing = held.replace(incoming);
        if let Some(place) = usize::try_from(self.current).ok().and_then(|c| self.slices.get_mut(c)) {
            *place = outgoing;
        }
        self.current = want;
    }

    /// Every slice in order, the output merger's `held` one back in its place.
    fn gather(mut self, held: Option<T>) -> Vec<T> {
        if let Some(place) = usize::try_from(self.current).ok().and_then(|c| self.slices.get_mut(c)) {
            *place = held;
        }
        self.slices.into_iter().flatten().collect()
    }

    /// How many slices the view has.
    fn count(&self) -> u32 {
        u32::try_from(self.slices.len()).unwrap_or(u32::MAX)
    }
}

/// The array slices of a draw's views of more than one slice: the output merger holds one slice of each view (the
/// first, until a primitive selects another), this holds the others.
#[derive(Debug, Default)]
pub(super) struct SliceSet {
    /// By render target slot: the view's slices, for a view of more than one.
    render_targets: [Option<ViewSlices<RenderTarget>>; RENDER_TARGET_SLOTS],
    /// The depth-stencil view's, for a view of more than one.
    depth_stencil: Option<ViewSlices<DepthStencilTarget>>,
}

impl SliceSet {
    /// The slices past the first of every view of `state` seeing more than one (their contents before the draw);
    /// `None` when every view sees one. An array view asking for slices its texture does not have (which
    /// `CreateRenderTargetView` refuses; a capture's replay holds only the view's first slice) is an error.
    pub(super) fn new(state: &DrawState) -> Result<Option<SliceSet>> {
        let mut set = SliceSet::default();
        let mut any = false;
        for (slot, (place, view)) in set.render_targets.iter_mut().zip(&state.render_targets).enumerate() {
            let Some(view) = view else { continue };
            let Some(texture) = view.texture() else { continue };
            check_asked(
                view.desc.first_array_slice,
                view.desc.array_size,
                rtv_slices_available(texture, &view.desc),
            )
            .map_err(|e| e.within(format!("{} render target {slot}", state.label)))?;
            let count = render_target_slices(texture, &view.desc);
            if count <= 1 {
                continue;
            }
            let mut slices = vec![None];
            for slice in 1..count {
                let desc = RenderTargetViewDesc {
                    first_array_slice: view.desc.first_array_slice.saturating_add(slice),
                    ..view.desc
                };
                let target = RenderTarget::from_view(texture, &desc)
                    .map_err(|e| e.within(format!("{} render target {slot} slice {slice}", state.label)))?;
                slices.push(Some(target));
            }
            *place = Some(ViewSlices { slices, current: 0 });
            any = true;
        }
        if let Some(view) = &state.depth_stencil_view
            && let Some(texture) = view.texture()
        {
            check_asked(
                view.desc.first_array_slice,
                view.desc.array_size,
                is_dsv_array(view.desc.dimension).then_some(texture.shape.array_size),
            )
            .map_err(|e| e.within(format!("{} depth-stencil view", state.label)))?;
            let count = depth_stencil_slices(texture, &view.desc);
            if count > 1 {
                let mut slices = vec![None];
                for slice in 1..count {
                    let desc = DepthStencilViewDesc {
                        first_array_slice: view.desc.first_array_slice.saturating_add(slice),
                        ..view.desc
                    };
                    let target = DepthStencilTarget::from_view(texture, &desc)
                        .map_err(|e| e.within(format!("{} depth-stencil view slice {slice}", state.label)))?;
                    slices.push(Some(target));
                }
                set.depth_stencil = Some(ViewSlices { slices, current: 0 });
                any = true;
            }
        }
        Ok(any.then_some(set))
    }

    /// Has `om` hold, of every view, the slice render-target array index `index` writes (15.15).
    pub(super) fn select(&mut self, om: &mut OutputMerger, index: u32) {
        let targets = om.targets_mut();
        for (view, held) in self.render_targets.iter_mut().zip(targets.render_targets.iter_mut()) {
            if let Some(view) = view {
                let want = array_slice(index, view.count());
                view.select(held, want);
            }
        }
        if let Some(view) = self.depth_stencil.as_mut() {
            let want = array_slice(index, view.count());
            view.select(&mut targets.depth_stencil, want);
        }
    }

    /// The images of `targets` (the output merger's after the draw) with every slice of each view, in order.
    pub(super) fn images(
        set: Option<SliceSet>,
        targets: Targets,
    ) -> Result<([Option<TargetImage>; RENDER_TARGET_SLOTS], Option<TargetImage>)> {
        let set = set.unwrap_or_default();
        let mut render_targets: [Option<TargetImage>; RENDER_TARGET_SLOTS] = Default::default();
        for ((image, held), view) in render_targets
            .iter_mut()
            .zip(targets.render_targets)
            .zip(set.render_targets)
        {
            let Some(first) = held.as_ref().map(|t| (t.format(), t.width(), t.height())) else {
                continue;
            };
            let slices = match view {
                Some(view) => view.gather(held),
                None => held.into_iter().collect(),
            };
            *image = Some(stacked(first, slices.into_iter().map(RenderTarget::into_bytes))?);
        }
        let held = targets.depth_stencil;
        let depth_stencil = match held.as_ref().map(|t| (t.format(), t.width(), t.height())) {
            Some(first) => {
                let slices = match set.depth_stencil {
                    Some(view) => view.gather(held),
                    None => held.into_iter().collect(),
                };
                Some(stacked(first, slices.into_iter().map(DepthStencilTarget::into_bytes))?)
            }
            None => None,
        };
        Ok((render_targets, depth_stencil))
    }
}

/// The slices a render target view of slices can choose from: the texture's array slices for an array view, the
/// depths slices of the view's mip for a `TEXTURE3D` view; `None` for a view of one slice.
fn rtv_slices_available(texture: &Texture, view: &RenderTargetViewDesc) -> Option<u32> {
    match view.dimension {
        RtvDimension::Texture1DArray | RtvDimension::Texture2DArray | RtvDimension::Texture2DMsArray => {
            Some(texture.shape.array_size)
        }
        RtvDimension::Texture3D => Some(texture.shape.mip_size(view.mip_slice)[2]),
        _ => None,
    }
}

/// Whether a depth-stencil view of `dimension` has array slices.
fn is_dsv_array(dimension: DsvDimension) -> bool {
    matches!(
        dimension,
        DsvDimension::Texture1DArray | DsvDimension::Texture2DArray | DsvDimension::Texture2DMsArray
    )
}

/// An error when a view of `asked` slices from `first` (`u32::MAX`: all there are) asks for slices past the
/// `available` ones (`None`: a view of one slice).
fn check_asked(first: u32, asked: u32, available: Option<u32>) -> Result<()> {
    let Some(available) = available else {
        return Ok(());
    };
    if asked != u32::MAX && u64::from(first).saturating_add(u64::from(asked)) > u64::from(available) {
        return Err(Error::new(
            "view",
            format!(
                "the view's slices {first} to {} are not all in the texture's {available} (a capture's replay holds                  only the view's first slice)",
                u64::from(first).saturating_add(u64::from(asked)).saturating_sub(1)
            ),
        ));
    }
    Ok(())
}

/// One image of slices (`format`, `width`, `height` each) one after the other.
fn stacked(
    (format, width, height): (crate::format::Format, u32, u32),
    slices: impl Iterator<Item = Vec<u8>>,
) -> Result<TargetImage> {
    let mut count = 0u32;
    let mut bytes = Vec::new();
    for slice in slices {
        if count == 0 {
            bytes = slice;
        } else {
            bytes.extend_from_slice(&slice);
        }
        count = count.saturating_add(1);
    }
    if count == 0 {
        return Err(Error::new("output merger", "a view's slices went missing"));
    }
    Ok(TargetImage {
        format,
        width,
        height,
        slices: count,
        bytes,
    })
}

#[cfg(test)]
mod tests;
