//! Iridia's capture format (`.iridia`, specified in `docs/capture-format.md`): a frame's draws in order, each
//! self-contained — its whole [`DrawState`](crate::api::draw::DrawState) and the contents the GPU left in every
//! bound render target and depth-stencil target before and after it — in a ZIP archive with a versioned JSON
//! manifest and content-addressed blobs (`blobs/<sha256>`), so that a buffer, texture or shader shared by many draws
//! is stored once.
//!
//! - [`Capture`] reads one: [`Capture::open`] takes the archive's bytes (what the browser has), [`Capture::from_reader`]
//!   anything `Read + Seek` (a file). Opening reads the ZIP directory and the manifest and checks every draw against
//!   the directory — blob present, sizes consistent — without inflating a blob; [`Capture::draws`] lists the draws
//!   from that alone; [`Capture::draw`] inflates what one draw needs and gives a [`CapturedDraw`]: its state, ready
//!   for replay, and the recorded [`RecordedTarget`]s. Since version 1.2 a capture also lists the frame's
//!   `ResolveSubresource` calls in their place among the draws: [`Capture::resolves`] from the manifest,
//!   [`Capture::resolve`] with their blobs ([`CapturedResolve`]: every source sample, the destination before and
//!   after), each checked at open as a draw is (5.6.6's rules: `convert::DrawCheck::resolve`).
//!   Since version 1.3 it also lists the frame's `Dispatch` calls likewise: [`Capture::dispatches`],
//!   [`Capture::dispatch`] ([`CapturedDispatch`]: the compute program and its bindings, every unordered access view
//!   with its whole resource before the dispatch, and each view's window and counter after it);
//!   [`Capture::events`] gives draws, resolves and dispatches in the frame's order. Since version 1.4 a draw may
//!   carry a geometry program, stream output (its buffers before and after) and the pixel stage's unordered access
//!   views (each view's whole resource before and window after), read into the [`CapturedDraw`]'s state and its
//!   `stream_output` and `uavs_after`; `DrawAuto` is recorded with the vertex count it amounted to, and indirect
//!   calls as the direct call their arguments gave.
//! - [`CaptureWriter`] writes one: blobs go into the archive as draws (and resolves, [`CaptureWriter::add_resolve`])
//!   are added (deduplicated by hash), the manifest last, so a recorder appends draw after draw and holds only the manifest's entries in memory.
//! - [`manifest`] holds the manifest's types: the format's JSON, field for field.
//!
//! **Targets in a replayed draw.** A capture records only the surface a target view writes (one mip of one slice:
//! without a geometry program a draw writes render target array index 0, the view's first slice, 15.15). So the
//! [`DrawState`](crate::api::draw::DrawState) of a [`CapturedDraw`] binds, for each target, a texture of one
//! subresource — the resource's dimension and format, the surface's width and height, one mip, one slice — holding
//! the recorded `before`, seen through the same view adjusted to mip 0, slice 0. The resource's real shape and the
//! original view are in the [`RecordedTarget`].
//!
//! Untrusted input: sizes in the manifest are checked against the ZIP directory's, which are checked against the
//! archive's length and deflate's largest ratio before any allocation; an entry is inflated into memory that grows
//! with what comes out, never past its declared size; a blob's SHA-256 is checked when inflated. Every failure is an
//! [`Error`] whose `what` is `"capture"` and whose `at` names the draw and the item
//! (`draw 12 ps shader_resources[3] resource subresources[0]`) or the archive entry.

mod append;
mod archive;
pub mod convert;
pub mod manifest;
pub mod outline;
pub mod ranged;
mod reader;
mod writer;

#[cfg(test)]
pub(crate) mod tests;

pub use archive::{MANIFEST_NAME, MAX_DEFLATE_RATIO};
pub use convert::{ResolveLayout, UavAccessKind, UavLayout, api_call_text, uav_layout};
pub use manifest::{
    BlobId, BlobRef, DispatchEntry, FORMAT_NAME, Manifest, ResolveDestinationEntry, ResolveEntry, ResolveSourceEntry,
    StreamOutputDeclarationEntry, StreamOutputStateEntry, StreamOutputTargetEntry, UavEntry, UnorderedAccessViewEntry,
    UnrecordedDrawEntry, UnrecordedTargetEntry, VERSION_MAJOR, VERSION_MINOR,
};
pub use reader::{
    Capture, CapturedDispatch, CapturedDraw, CapturedResolve, DispatchSummary, DrawSummary, FrameEvent, ProgramSummary,
    RecordedStreamOutput, RecordedTarget, RecordedUav, ShaderStage, StreamOutputSummary, TargetSlot, TargetSummary,
    TargetViewDesc, UavSummary,
};
pub use writer::{CaptureWriter, DispatchRecord, DrawRecord, ResolveRecord, write_capture};

use crate::Error;

/// The largest manifest a reader inflates (256 MiB: a few hundred thousand draws).
pub const MAX_MANIFEST_BYTES: u64 = 256 << 20;

/// The largest blob a capture may hold (2 GiB): an Iridia limit, above a 16384 x 16384 texture of 8-byte texels.
pub const MAX_BLOB_BYTES: u64 = 2 << 30;

/// The most bytes one draw's blobs may inflate to by default (each blob counted once: buffers, textures, programs,
/// targets before and after): 4 GiB natively, 1 GiB in the browser, whose module has 4 GiB of memory in all. A draw
/// past it fails with a budget error before anything is inflated; [`Capture::set_draw_memory_limit`] changes it
/// (`--max-memory`).
pub const DEFAULT_DRAW_MEMORY: u64 = if cfg!(target_arch = "wasm32") { 1 << 30 } else { 4 << 30 };

/// The blob cache's default budget (256 MiB): blobs inflated for one draw stay for the next while they fit.
pub const DEFAULT_CACHE_BYTES: u64 = 256 << 20;

/// An error about a capture.
pub(crate) fn capture_error(detail: impl Into<String>) -> Error {
    Error::new("capture", detail)
}
