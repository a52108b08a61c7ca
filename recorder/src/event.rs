//! The frame's events that are not draws, resolves or dispatches (capture format 1.5's `events`): the program's
//! own markers (`ID3DUserDefinedAnnotation::BeginEvent`, `EndEvent`, `SetMarker`) and its clears, copies, updates
//! and mip generations. A hook makes an [`EventCall`] from the program's arguments, only while a capture runs; the
//! capture names it ([`EventCall::text`]: the call and what it touches, a `GetDesc` or two, no GPU work) and sends
//! it to the writer in submission order with the draws, or — on a deferred context — where its command list runs.

use crate::readback::{Described, describe};
use iridia::capture::outline::MAX_NAME_CHARS;
use std::ffi::c_void;
use std::fmt::Write;
use windows::Win32::Graphics::Direct3D11::{D3D11_BOX, ID3D11Resource, ID3D11View};
use windows::core::{Interface, PCWSTR};

/// One event's call, with the program's arguments (raw COM pointers are borrowed for the hook's call only).
pub enum EventCall {
    /// `BeginEvent(name)`: a marker region starts.
    Begin(String),
    /// `EndEvent()`: the innermost region ends.
    End,
    /// `SetMarker(name)`: a point marker.
    Marker(String),
    /// `ClearRenderTargetView`.
    ClearRenderTarget {
        /// The render target view.
        view: *mut c_void,
        /// The colour, if the program gave one.
        color: Option<[f32; 4]>,
    },
    /// `ClearDepthStencilView`.
    ClearDepthStencil {
        /// The depth-stencil view.
        view: *mut c_void,
        /// `D3D11_CLEAR_FLAG`s.
        flags: u32,
        /// The depth value.
        depth: f32,
        /// The stencil value.
        stencil: u8,
    },
    /// `ClearUnorderedAccessViewUint`.
    ClearUavUint {
        /// The view.
        view: *mut c_void,
        /// The values, if the program gave them.
        values: Option<[u32; 4]>,
    },
    /// `ClearUnorderedAccessViewFloat`.
    ClearUavFloat {
        /// The view.
        view: *mut c_void,
        /// The values, if the program gave them.
        values: Option<[f32; 4]>,
    },
    /// `ID3D11DeviceContext1::ClearView`.
    ClearView {
        /// The view (any kind).
        view: *mut c_void,
        /// The colour, if the program gave one.
        color: Option<[f32; 4]>,
        /// How many rectangles it clears (0: the whole view).
        rects: u32,
    },
    /// `CopyResource`.
    CopyResource {
        /// The destination resource.
        destination: *mut c_void,
        /// The source resource.
        source: *mut c_void,
    },
    /// `CopySubresourceRegion` and `CopySubresourceRegion1`.
    CopyRegion {
        /// The call's name.
        call: &'static str,
        /// The destination resource.
        destination: *mut c_void,
        /// The destination subresource.
        destination_subresource: u32,
        /// Where in the destination the region goes.
        at: [u32; 3],
        /// The source resource.
        source: *mut c_void,
        /// The source subresource.
        source_subresource: u32,
        /// The source box, if given (else the whole subresource).
        region: Option<D3D11_BOX>,
    },
    /// `UpdateSubresource` and `UpdateSubresource1`.
    Update {
        /// The call's name.
        call: &'static str,
        /// The destination resource.
        destination: *mut c_void,
        /// The destination subresource.
        subresource: u32,
        /// The destination box, if given (else the whole subresource).
        region: Option<D3D11_BOX>,
    },
    /// `GenerateMips`.
    GenerateMips {
        /// The shader resource view.
        view: *mut c_void,
    },
}

impl EventCall {
    /// The event's kind in the capture (docs/capture-format.md, Event).
    pub fn kind(&self) -> &'static str {
        match self {
            EventCall::Begin(_) => "begin",
            EventCall::End => "end",
            EventCall::Marker(_) => "marker",
            EventCall::ClearRenderTarget { .. }
            | EventCall::ClearDepthStencil { .. }
            | EventCall::ClearUavUint { .. }
            | EventCall::ClearUavFloat { .. }
            | EventCall::ClearView { .. } => "clear",
            EventCall::CopyResource { .. } | EventCall::CopyRegion { .. } => "copy",
            EventCall::Update { .. } => "update",
            EventCall::GenerateMips { .. } => "generate_mips",
        }
    }

    /// The event's text: a marker's name, or the call with what it touches, e.g. `ClearRenderTargetView(rt 64x64
    /// R8G8B8A8_UNORM, 0.05, 0.1, 0.15, 1)`; `None` for `end`. Views and resources are described through their
    /// `GetDesc` (must run on the hook's call, while the program's pointers are live).
    pub fn text(self) -> Option<String> {
        let mut text = String::new();
        // `write!` into a `String` cannot fail
        let _ = match self {
            EventCall::Begin(name) | EventCall::Marker(name) => return Some(name),
            EventCall::End => return None,
            EventCall::ClearRenderTarget { view, color } => {
                write!(text, "ClearRenderTargetView(rt {}, {})", view_text(view), list(color))
            }
            EventCall::ClearDepthStencil {
                view,
                flags,
                depth,
                stencil,
            } => {
                let which = match flags & 3 {
                    1 => "DEPTH",
                    2 => "STENCIL",
                    3 => "DEPTH|STENCIL",
                    _ => "0",
                };
                write!(
                    text,
                    "ClearDepthStencilView(depth {}, {which}, {depth}, {stencil})",
                    view_text(view)
                )
            }
            EventCall::ClearUavUint { view, values } => write!(
                text,
                "ClearUnorderedAccessViewUint(uav {}, {})",
                view_text(view),
                list(values)
            ),
            EventCall::ClearUavFloat { view, values } => write!(
                text,
                "ClearUnorderedAccessViewFloat(uav {}, {})",
                view_text(view),
                list(values)
            ),
            EventCall::ClearView { view, color, rects } => {
                write!(text, "ClearView({}, {}, {rects} rects)", view_text(view), list(color))
            }
            EventCall::CopyResource { destination, source } => write!(
                text,
                "CopyResource(dst {}, src {})",
                resource_text(destination),
                resource_text(source)
            ),
            EventCall::CopyRegion {
                call,
                destination,
                destination_subresource,
                at: [x, y, z],
                source,
                source_subresource,
                region,
            } => write!(
                text,
                "{call}(dst {} sub {destination_subresource} at ({x}, {y}, {z}), src {} sub {source_subresource}, {})",
                resource_text(destination),
                resource_text(source),
                box_text(region)
            ),
            EventCall::Update {
                call,
                destination,
                subresource,
                region,
            } => write!(
                text,
                "{call}(dst {} sub {subresource}, {})",
                resource_text(destination),
                box_text(region)
            ),
            EventCall::GenerateMips { view } => write!(text, "GenerateMips(srv {})", view_text(view)),
        };
        Some(text)
    }
}

/// Four values as `a, b, c, d`, or `?` when the program passed none.
fn list<T: std::fmt::Display>(values: Option<[T; 4]>) -> String {
    match values {
        Some([a, b, c, d]) => format!("{a}, {b}, {c}, {d}"),
        None => "?".to_owned(),
    }
}

/// A box as `box (left, top, front)-(right, bottom, back)`, or `whole` when none was given.
fn box_text(region: Option<D3D11_BOX>) -> String {
    match region {
        Some(b) => format!(
            "box ({}, {}, {})-({}, {}, {})",
            b.left, b.top, b.front, b.right, b.bottom, b.back
        ),
        None => "whole".to_owned(),
    }
}

/// The resource of the view `view` (a raw `ID3D11View`), described by [`resource_text`].
fn view_text(view: *mut c_void) -> String {
    // SAFETY: `view` is the live view the program passed to the hooked call; borrowing adds no reference.
    let Some(view) = (unsafe { ID3D11View::from_raw_borrowed(&view) }) else {
        return "null".to_owned();
    };
    // SAFETY: a live view; the resource is AddRef'd and released on drop.
    match unsafe { view.GetResource() } {
        Ok(resource) => described(&resource),
        Err(_) => "?".to_owned(),
    }
}

/// The resource `resource` (a raw `ID3D11Resource`): a texture as `WxH FORMAT` (`WxHxD` for a volume, `[N]` for an
/// array of N slices, `Nx` for N samples), a buffer as `buffer N B`; `null` or `?` when it cannot be described.
fn resource_text(resource: *mut c_void) -> String {
    // SAFETY: `resource` is the live resource the program passed to the hooked call; borrowing adds no reference.
    match unsafe { ID3D11Resource::from_raw_borrowed(&resource) } {
        Some(resource) => described(resource),
        None => "null".to_owned(),
    }
}

/// See [`resource_text`].
fn described(resource: &ID3D11Resource) -> String {
    match describe(resource) {
        Ok(Described::Buffer { bytes }) => format!("buffer {bytes} B"),
        Ok(Described::Texture { shape, .. }) => {
            let mut text = format!("{}x{}", shape.width, shape.height);
            if shape.depth > 1 {
                let _ = write!(text, "x{}", shape.depth);
            }
            if shape.array_size > 1 {
                let _ = write!(text, "[{}]", shape.array_size);
            }
            let _ = write!(text, " {}", shape.format);
            if shape.sample_count > 1 {
                let _ = write!(text, " {}x", shape.sample_count);
            }
            text
        }
        Err(_) => "?".to_owned(),
    }
}

/// The text of a marker's name: the UTF-16 string at `name` up to its terminating zero, at most
/// [`MAX_NAME_CHARS`] code units read (the capture keeps no more); empty for a null pointer.
///
/// # Safety
/// `name` must be null or point at a zero-terminated UTF-16 string (the API's contract for `LPCWSTR`), or at least
/// at [`MAX_NAME_CHARS`] readable code units.
pub unsafe fn wide_text(name: PCWSTR) -> String {
    if name.is_null() {
        return String::new();
    }
    let mut units = Vec::new();
    let mut at = name.0;
    for _ in 0..MAX_NAME_CHARS {
        // SAFETY: the caller's contract: the string is readable up to its zero, which ends the loop.
        let unit = unsafe { at.read() };
        if unit == 0 {
            break;
        }
        units.push(unit);
        // SAFETY: the next code unit is within the string, whose zero has not been reached.
        at = unsafe { at.add(1) };
    }
    String::from_utf16_lossy(&units)
}
