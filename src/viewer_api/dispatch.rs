//! A frame's dispatches in the viewer: each replayed when asked ([`ViewerCapture::replay_dispatch`], not when the
//! capture opens), its views shown as images like a draw's targets ([`ViewerCapture::render_dispatch_view`]) and an
//! element of a view inspected ([`ViewerCapture::inspect_dispatch_element`]: the threads that wrote it, in order,
//! with their traces, [`crate::inspect::dispatch`]).
//!
//! How a view's window is shown (for looking, no D3D rule):
//! - a typed **texture** view: its texels, `width` x `height` (a view of several slices has them stacked, slice 0's
//!   rows on top), in its format;
//! - a typed **buffer** view: its elements in rows of [`ELEMENTS_A_ROW`], element `i` at (`i % 64`, `i / 64`), in the
//!   view's format;
//! - a **raw** or **structured** buffer view: its 32-bit words likewise in rows of 64 (a structure of `stride` bytes
//!   is `stride / 4` words in a row), each word read as `R32_UINT`;
//!
//! the rest of the last row is filled with zeros in every image and never differs. The difference image is the
//! comparison's mask over the replayed image, as a target's: a typed view's texels compared under the format's
//! default tolerance, a raw or structured view's words exactly (what [`crate::replay::replay_dispatch`] compares).

use crate::api::enums::UavDimension;
use crate::capture::UavAccessKind;
use crate::compare::{Image, ToleranceSpec};
use crate::dispatch::{DispatchOptions, ThreadPlace};
use crate::error::ErrorKind;
use crate::format::Format;
use crate::inspect::dispatch::{ElementAddress, inspect_element};
use crate::replay::dispatch::compare_view_image;
use crate::replay::{DispatchReplay, UavReplay, replay_dispatch};
use crate::{Error, Result};

use super::display::{render_difference, render_values};
use super::inspect::compute_trace;
use super::texels::stored_texel;
use super::types::{
    DispatchElement, DispatchInfo, DispatchResult, DispatchThread, DispatchView, DisplayOptions, DrawStatus,
    ElementWriteInfo, ErrorInfo, ImageKind, RenderedImage, TargetId, TexelValue, WriterTraceInfo,
};
use super::{ViewTarget, ViewerCapture};

/// Elements (or words) a row of a buffer view's image.
pub const ELEMENTS_A_ROW: u32 = 64;

/// The most work one dispatch's replay may do (2^30 lane-instructions, about a second): a larger one is listed with
/// the budget error.
pub const DISPATCH_WORK: u64 = 1 << 30;

/// How many replayed dispatches keep their views' bytes.
pub const KEPT_DISPATCHES: usize = 4;

/// How one view's window is laid out as an image.
#[derive(Clone, Copy, Debug)]
struct Shown {
    /// The format each pixel is read in.
    format: Format,
    /// Image width.
    width: u32,
    /// Image height.
    height: u32,
    /// Bytes a pixel.
    pixel_bytes: u32,
    /// Whether the image is the buffer's elements or words in rows of [`ELEMENTS_A_ROW`].
    rows_of_64: bool,
}

impl Shown {
    /// The layout of `view`'s image, a view of `dimension`.
    fn of(view: &UavReplay, dimension: UavDimension) -> Result<Shown> {
        let layout = &view.layout;
        let buffer = dimension == UavDimension::Buffer;
        let (format, pixel_bytes) = match layout.access {
            UavAccessKind::Typed => (
                layout.format,
                u32::try_from(layout.element_bytes).map_err(|_| Error::new("dispatch", "element size"))?,
            ),
            UavAccessKind::Raw | UavAccessKind::Structured { .. } => (Format::R32Uint, 4),
        };
        if !buffer {
            return Ok(Shown {
                format,
                width: layout.width,
                height: layout.height,
                pixel_bytes,
                rows_of_64: false,
            });
        }
        let count = u32::try_from(layout.bytes.checked_div(u64::from(pixel_bytes)).unwrap_or(0)).unwrap_or(u32::MAX);
        Ok(Shown {
            format,
            width: count.clamp(1, ELEMENTS_A_ROW),
            height: count.div_ceil(ELEMENTS_A_ROW).max(1),
            pixel_bytes,
            rows_of_64: true,
        })
    }

    /// `bytes` (a window) padded with zeros to the image's full rows.
    fn padded(&self, bytes: &[u8]) -> Vec<u8> {
        let total = u64::from(self.width)
            .saturating_mul(u64::from(self.height))
            .saturating_mul(u64::from(self.pixel_bytes));
        let mut out = bytes.to_vec();
        out.resize(usize::try_from(total).unwrap_or(bytes.len()).max(bytes.len()), 0);
        out
    }

    /// A view target of the image, for rendering.
    fn target(&self, bytes: std::sync::Arc<[u8]>) -> ViewTarget {
        ViewTarget {
            id: TargetId::Rt0,
            format: self.format,
            width: self.width,
            height: self.height,
            samples: 1,
            before: bytes,
            recorded: None,
        }
    }
}

/// A person's description of a view's image layout.
fn layout_text(view: &UavReplay, shown: &Shown) -> String {
    let layout = &view.layout;
    match (layout.access, shown.rows_of_64) {
        (UavAccessKind::Typed, false) => format!(
            "{} texture view, {}x{} texels{}",
            layout.format,
            layout.width,
            layout.height,
            if layout.slices > 1 {
                format!(" ({} slices stacked, slice 0 on top)", layout.slices)
            } else {
                String::new()
            }
        ),
        (UavAccessKind::Typed, true) => format!(
            "{} buffer view of {} elements, {ELEMENTS_A_ROW} a row: element i at (i mod {ELEMENTS_A_ROW}, i / \
             {ELEMENTS_A_ROW})",
            layout.format, layout.width
        ),
        (UavAccessKind::Raw, _) => format!(
            "raw buffer view of {} words (R32_UINT), {ELEMENTS_A_ROW} a row: the word at byte 4i at (i mod \
             {ELEMENTS_A_ROW}, i / {ELEMENTS_A_ROW})",
            layout.width
        ),
        (UavAccessKind::Structured { stride }, _) => format!(
            "structured buffer view of {} structures of {stride} bytes as words (R32_UINT), {ELEMENTS_A_ROW} a row: \
             word i at (i mod {ELEMENTS_A_ROW}, i / {ELEMENTS_A_ROW})",
            layout.width
        ),
    }
}

/// The list's status of a replayed dispatch (nothing compared when nothing was recorded after it), and how many of its results depend on the threads' order.
pub(super) fn status_of(replay: &DispatchReplay) -> (DrawStatus, u64) {
    let reports: Vec<_> = replay.uavs.iter().filter_map(|u| u.report.as_ref()).collect();
    let compared = reports.iter().map(|r| r.compared).fold(0u64, u64::saturating_add);
    let differing = reports.iter().map(|r| r.differing).fold(0u64, u64::saturating_add);
    let order_dependent = replay
        .uavs
        .iter()
        .filter_map(|u| u.order.as_ref())
        .map(|o| (o.elements.len() as u64).saturating_add(u64::from(o.counter)))
        .fold(0u64, u64::saturating_add);
    // replayed with nothing recorded after it: matches with nothing compared, as a draw without a recorded target
    let status = if replay.matches() {
        DrawStatus::Matches {
            compared_pixels: compared,
        }
    } else {
        DrawStatus::Differs {
            differing_pixels: differing,
            ambiguous_pixels: 0,
            compared_pixels: compared,
        }
    };
    (status, order_dependent)
}

/// The options a dispatch runs under in the viewer.
fn options() -> DispatchOptions {
    DispatchOptions {
        work_limit: DISPATCH_WORK,
        ..DispatchOptions::default()
    }
}

/// The error for a dispatch index past the capture's.
fn no_dispatch(index: usize, count: usize) -> Error {
    Error::of_kind(
        ErrorKind::Request,
        "request",
        format!("there is no dispatch {index}; the capture has {count}"),
    )
}

/// A protocol thread from a library one.
fn thread_of(place: &ThreadPlace) -> DispatchThread {
    DispatchThread {
        group: place.group,
        thread_in_group: place.thread_in_group,
        thread: place.thread,
    }
}

/// Bytes from lowercase hex (what [`crate::inspect::TexelValue::bytes`] holds); pairs that are not hex are dropped.
fn from_hex(text: &str) -> Vec<u8> {
    text.as_bytes()
        .chunks_exact(2)
        .filter_map(|pair| std::str::from_utf8(pair).ok())
        .filter_map(|pair| u8::from_str_radix(pair, 16).ok())
        .collect()
}

impl ViewerCapture {
    /// The dimension of view `u{slot}` of dispatch `index`, as the manifest gives it.
    fn view_dimension(&self, index: usize, slot: u32) -> UavDimension {
        self.capture
            .dispatches()
            .get(index)
            .and_then(|d| d.uavs.iter().find(|u| u.slot == slot))
            .map_or(UavDimension::Unknown, |u| u.view.dimension)
    }

    /// Replays dispatch `index` from its recorded views and compares each (the list's status of it changes from
    /// not replayed to the result); the result is kept for its images and elements.
    pub fn replay_dispatch(&mut self, index: usize) -> Result<DispatchResult> {
        let count = self.dispatches.len();
        let info = self
            .dispatches
            .get(index)
            .cloned()
            .ok_or_else(|| no_dispatch(index, count))?;
        let replayed = self
            .capture
            .dispatch(index)
            .and_then(|dispatch| replay_dispatch(&dispatch, &ToleranceSpec::default(), &options()));
        let replay = match replayed {
            Ok(replay) => replay,
            Err(error) => {
                if let Some(slot) = self.dispatches.get_mut(index) {
                    slot.status = DrawStatus::Error {
                        error: ErrorInfo::from(&error),
                    };
                }
                return Err(error);
            }
        };
        let (status, order_dependent) = status_of(&replay);
        let dispatch = DispatchInfo {
            status,
            order_dependent,
            ..info
        };
        if let Some(slot) = self.dispatches.get_mut(index) {
            *slot = dispatch.clone();
        }
        let views = replay
            .uavs
            .iter()
            .map(|view| {
                let shown = Shown::of(view, self.view_dimension(index, view.slot))?;
                let report = view.report.as_ref();
                Ok(DispatchView {
                    slot: view.slot,
                    access: match view.layout.access {
                        UavAccessKind::Typed => "typed",
                        UavAccessKind::Raw => "raw",
                        UavAccessKind::Structured { .. } => "structured",
                    }
                    .to_owned(),
                    format: shown.format.to_string(),
                    width: shown.width,
                    height: shown.height,
                    layout: layout_text(view, &shown),
                    recorded: view.recorded_after,
                    unit: report.map_or("element", |r| r.unit).to_owned(),
                    compared: report.map_or(0, |r| r.compared),
                    differing: report.map_or(0, |r| r.differing),
                    matches: view.matches(),
                    order_dependent: view.order.as_ref().map_or(0, |o| o.elements.len() as u64),
                    counter_unordered: view.order.as_ref().is_some_and(|o| o.counter),
                    recorded_counter: report.and_then(|r| r.counter).map(|c| c.recorded),
                    replayed_counter: view.replayed_counter,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let result = DispatchResult {
            dispatch,
            groups: replay.groups,
            threads: replay.stats.threads,
            views,
        };
        self.kept_dispatches.retain(|(i, _)| *i != index);
        self.kept_dispatches.push_back((index, replay));
        while self.kept_dispatches.len() > KEPT_DISPATCHES {
            self.kept_dispatches.pop_front();
        }
        Ok(result)
    }

    /// The kept replay of dispatch `index` and its view `u{slot}`.
    fn dispatch_view(&self, index: usize, slot: u32) -> Result<&UavReplay> {
        let (_, replay) = self.kept_dispatches.iter().find(|(i, _)| *i == index).ok_or_else(|| {
            Error::of_kind(
                ErrorKind::NotReplayed,
                super::NOT_REPLAYED_WHAT,
                format!("dispatch {index} has not been replayed (or its result was dropped): replay it first"),
            )
        })?;
        replay.uavs.iter().find(|u| u.slot == slot).ok_or_else(|| {
            Error::of_kind(
                ErrorKind::Request,
                "request",
                format!("dispatch {index} records no view u{slot}"),
            )
        })
    }

    /// Image `kind` (replayed, recorded, before or difference) of view `u{slot}` of the replayed dispatch `index`,
    /// laid out as the module documentation says, under `display`.
    pub fn render_dispatch_view(
        &mut self,
        index: usize,
        slot: u32,
        kind: ImageKind,
        display: &DisplayOptions,
    ) -> Result<RenderedImage> {
        let dimension = self.view_dimension(index, slot);
        let view = self.dispatch_view(index, slot)?;
        let shown = Shown::of(view, dimension)?;
        let no_recorded = || {
            Error::new(
                "capture",
                format!("the capture holds nothing of u{slot} after dispatch {index}"),
            )
        };
        let replayed: std::sync::Arc<[u8]> = shown.padded(&view.replayed).into();
        let target = shown.target(std::sync::Arc::clone(&replayed));
        match kind {
            ImageKind::Replayed => render_values(&target, &target.image(&replayed)?, display),
            ImageKind::Before => render_values(&target, &target.image(&shown.padded(&view.before))?, display),
            ImageKind::Recorded => {
                let recorded = shown.padded(view.recorded.as_deref().ok_or_else(no_recorded)?);
                render_values(&target, &target.image(&recorded)?, display)
            }
            ImageKind::Difference => {
                let recorded = shown.padded(view.recorded.as_deref().ok_or_else(no_recorded)?);
                let comparison = compare_view_image(
                    &Image::new(shown.format, shown.width, shown.height, &recorded)?,
                    &target.image(&replayed)?,
                    view.layout.access,
                    &ToleranceSpec::default(),
                )?;
                Ok(render_difference(
                    &comparison,
                    render_values(&target, &target.image(&replayed)?, display)?,
                ))
            }
            ImageKind::Heatmap | ImageKind::Perceptual => Err(Error::of_kind(
                ErrorKind::Request,
                "request",
                "a dispatch's view shows replayed, recorded, before or difference images",
            )),
        }
    }

    /// The element of view `u{slot}` of the replayed dispatch `index` at (`x`, `y`) of its image: the threads that
    /// wrote it, in order, with their traces ([`crate::inspect::dispatch::inspect_element`]).
    pub fn inspect_dispatch_element(&mut self, index: usize, slot: u32, x: u32, y: u32) -> Result<DispatchElement> {
        let dimension = self.view_dimension(index, slot);
        let view = self.dispatch_view(index, slot)?;
        let shown = Shown::of(view, dimension)?;
        let outside = || {
            Error::of_kind(
                ErrorKind::Request,
                "request",
                format!(
                    "({x}, {y}) is not an element of u{slot}'s {}x{} image",
                    shown.width, shown.height
                ),
            )
        };
        if x >= shown.width || y >= shown.height {
            return Err(outside());
        }
        let layout = view.layout;
        // the image position as the view's instructions address it (module documentation)
        let linear = y
            .checked_mul(shown.width)
            .and_then(|r| r.checked_add(x))
            .ok_or_else(outside)?;
        let (address, element) = if shown.rows_of_64 {
            match layout.access {
                UavAccessKind::Typed => ([linear, 0, 0], format!("element {linear}")),
                UavAccessKind::Raw => {
                    let byte = linear.checked_mul(4).ok_or_else(outside)?;
                    ([byte, 0, 0], format!("the word at byte {byte}"))
                }
                UavAccessKind::Structured { stride } => {
                    let words = (stride / 4).max(1);
                    let structure = linear.checked_div(words).unwrap_or(0);
                    let byte = linear.checked_rem(words).unwrap_or(0).saturating_mul(4);
                    (
                        [structure, byte, 0],
                        format!("structure {structure}, byte offset {byte}"),
                    )
                }
            }
        } else {
            let rows = layout
                .height
                .checked_div(layout.slices.max(1))
                .unwrap_or(layout.height)
                .max(1);
            let (row, slice) = (y.checked_rem(rows).unwrap_or(y), y.checked_div(rows).unwrap_or(0));
            match dimension {
                UavDimension::Texture1DArray => ([x, slice, 0], format!("texel {x}, slice {slice}")),
                UavDimension::Texture2DArray | UavDimension::Texture3D => {
                    ([x, row, slice], format!("texel ({x}, {row}), slice {slice}"))
                }
                _ => ([x, y, 0], format!("texel ({x}, {y})")),
            }
        };
        if linear.saturating_mul(shown.pixel_bytes) >= u32::try_from(layout.bytes).unwrap_or(u32::MAX)
            && shown.rows_of_64
        {
            return Err(outside());
        }
        self.element_info(index, slot, (x, y), element, ElementAddress::At(address))
    }

    /// The hidden counter of view `u{slot}` of the replayed dispatch `index` (an append or counter view's): its values
    /// and every thread that took or gave back a slot, in order, with their traces.
    pub fn inspect_dispatch_counter(&mut self, index: usize, slot: u32) -> Result<DispatchElement> {
        self.dispatch_view(index, slot)?;
        self.element_info(
            index,
            slot,
            (0, 0),
            "the hidden counter".to_owned(),
            ElementAddress::Counter,
        )
    }

    /// The inspection of `address` of view `u{slot}` of dispatch `index` (clicked at `at`, called `element`) in the
    /// protocol's shapes.
    fn element_info(
        &mut self,
        index: usize,
        slot: u32,
        (x, y): (u32, u32),
        element: String,
        address: ElementAddress,
    ) -> Result<DispatchElement> {
        let dispatch = self.capture.dispatch(index)?;
        let inspection = inspect_element(&dispatch, slot, address, &ToleranceSpec::default(), &options())?;
        let program = self
            .shaders
            .program(&dispatch.state.compute_shader, &format!("dispatch {index} cs"))?;
        let texel = |value: &crate::inspect::TexelValue| -> Result<TexelValue> {
            stored_texel(inspection.format, &from_hex(&value.bytes))
        };
        Ok(DispatchElement {
            dispatch: index,
            slot,
            x,
            y,
            element,
            counter: inspection.counter,
            byte_offset: inspection.byte_offset,
            format: inspection.format.to_string(),
            before: texel(&inspection.before)?,
            recorded: inspection.recorded.as_ref().map(texel).transpose()?,
            replayed: texel(&inspection.replayed)?,
            matches: inspection.matches,
            order_dependent: inspection.order_dependent,
            counter_unordered: inspection.counter_unordered,
            writes: inspection
                .writes
                .iter()
                .map(|w| {
                    Ok(ElementWriteInfo {
                        thread: thread_of(&w.thread),
                        instruction: w.instruction,
                        line: w.line.clone(),
                        operation: w.operation.clone(),
                        before: texel(&w.before)?,
                        after: texel(&w.after)?,
                    })
                })
                .collect::<Result<Vec<_>>>()?,
            writes_not_kept: inspection.writes_not_kept,
            writers: inspection.writers,
            traces: inspection
                .traces
                .iter()
                .map(|t| WriterTraceInfo {
                    thread: thread_of(&t.thread),
                    trace: compute_trace(&program, &t.trace),
                })
                .collect(),
            writers_not_traced: inspection.writers_not_traced,
        })
    }
}
