//! The browser's door into Iridia: a thin wasm-bindgen layer over [`crate::viewer_api`], plain data across the
//! boundary. `www/src/wasm-backend.ts` is the only file of the viewer that knows these names; its header lists them.
//!
//! Every exported function returns a `Result`: a failure reaches JavaScript as a thrown object `{kind, what, at?,
//! detail?}` (the library's [`crate::Error`], `kind` its [`crate::error::ErrorKind`] in snake_case, which the viewer
//! matches on), never as a trap. Results are the shapes of `www/src/protocol.ts`,
//! serialized with serde-wasm-bindgen's JSON-compatible serializer (`None` as `null`, structs as plain objects) and
//! image bytes as a `Uint8Array`.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::Error;
use crate::capture::ranged::RangeSource;
use crate::error::ErrorKind;
use crate::viewer_api::ViewerCapture;
use crate::viewer_api::types::{DisplayOptions, ErrorInfo, ImageKind, Stage, TargetId};

/// Installs the panic hook, so that a bug reaches the browser console with its message rather than as a bare trap.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The library's version, for the viewer's about line.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// `value` as a JavaScript value in the protocol's shape.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| error_value(&Error::new("wasm", format!("a result could not be converted: {e}"))))
}

/// An error as the object JavaScript receives: `{kind, what, at?, detail?}` ([`ErrorInfo`]).
fn error_value(error: &Error) -> JsValue {
    ErrorInfo::from(error)
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or_else(|_| JsValue::from_str(&error.to_string()))
}

/// A library result as a JavaScript one.
fn answer<T: Serialize>(result: crate::Result<T>) -> Result<JsValue, JsValue> {
    match result {
        Ok(value) => to_js(&value),
        Err(error) => Err(error_value(&error)),
    }
}

/// A draw index from JavaScript.
fn index(draw: u32) -> usize {
    draw as usize
}

/// An open capture.
#[wasm_bindgen]
pub struct Capture {
    inner: ViewerCapture,
}

/// Panics, which in wasm is a trap: the viewer's tests make the engine crash with it and see the page replace its
/// worker and reopen the capture (`crash_for_test` in `www/src/protocol.ts`; the page itself never calls it).
#[wasm_bindgen]
#[allow(clippy::panic)] // crashing is this function's purpose
pub fn crash_for_test() {
    panic!("crash_for_test: the engine was asked to crash");
}

/// A capture read by position through a JavaScript function `read(offset, length)` returning a `Uint8Array` of
/// exactly `length` bytes: the worker's `FileReaderSync` over a `File`, or synchronous HTTP range requests
/// (`www/src/wasm-backend.ts`). A throw becomes an I/O error of the read, so the open or draw fails with it.
struct JsRangeSource {
    length: u64,
    read: js_sys::Function,
}

impl RangeSource for JsRangeSource {
    fn length(&self) -> u64 {
        self.length
    }

    fn read_at(&mut self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        let thrown_text = |thrown: JsValue| {
            thrown
                .dyn_ref::<js_sys::Error>()
                .map(|error| String::from(error.message()))
                .or_else(|| thrown.as_string())
                .unwrap_or_else(|| "the capture's reader failed".to_owned())
        };
        let answer = self
            .read
            .call2(
                &JsValue::NULL,
                &JsValue::from_f64(offset as f64),
                &JsValue::from_f64(out.len() as f64),
            )
            .map_err(|thrown| std::io::Error::other(thrown_text(thrown)))?;
        let bytes = answer
            .dyn_into::<js_sys::Uint8Array>()
            .map_err(|_| std::io::Error::other("the capture's reader gave no bytes"))?;
        if bytes.length() as usize != out.len() {
            return Err(std::io::Error::other(format!(
                "asked for {} bytes at offset {offset}, the capture's reader gave {}",
                out.len(),
                bytes.length()
            )));
        }
        bytes.copy_to(out);
        Ok(())
    }
}

/// Opens a capture of `length` bytes read by position through `read(offset, length) -> Uint8Array` (see
/// [`JsRangeSource`]): reads the ZIP directory and manifest only, and each draw's blobs when it is read, never the
/// whole file (a capture the worker holds whole is read from its buffer the same way, so it is never copied whole
/// into the module). `name` is the file's name, for errors.
#[wasm_bindgen]
pub fn open_capture_ranged(length: f64, read: js_sys::Function, name: &str) -> Result<Capture, JsValue> {
    // a JavaScript number: a length must be a whole number of bytes that a double holds exactly
    if !(length.is_finite() && length >= 0.0 && length.fract() == 0.0 && length <= 2f64.powi(53)) {
        let error = Error::of_kind(ErrorKind::Request, "capture", format!("{length} is not a file length"));
        return Err(error_value(&error.within(name)));
    }
    let source = JsRangeSource {
        length: length as u64,
        read,
    };
    ViewerCapture::open_ranged(Box::new(source))
        .map(|inner| Capture { inner })
        .map_err(|error| error_value(&error.within(name)))
}

#[wasm_bindgen]
impl Capture {
    /// `CaptureSummary` without the worker's capture number.
    pub fn summary(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.summary())
    }

    /// `DrawInfo[]`.
    pub fn draws(&mut self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.draws())
    }

    /// Sets the limits later replays run under (a `Limits`); returns them.
    pub fn set_limits(&mut self, limits: JsValue) -> Result<JsValue, JsValue> {
        let result = serde_wasm_bindgen::from_value::<crate::viewer_api::types::Limits>(limits)
            .map_err(|e| Error::of_kind(ErrorKind::Request, "request", format!("the limits are not valid: {e}")))
            .map(|limits| self.inner.set_limits(limits));
        answer(result)
    }

    /// Sets the variants later replays run under (comma-separated names; empty: the spec's rules); returns their
    /// names. A change drops every replay made under the old set.
    pub fn set_variants(&mut self, list: &str) -> Result<JsValue, JsValue> {
        answer(self.inner.set_variants(list))
    }

    /// Goes on with explaining draw `draw`, one set of variants a call; `Progress & { finished }`.
    pub fn explain_step(&mut self, draw: u32) -> Result<JsValue, JsValue> {
        answer(self.inner.explain_step(index(draw)))
    }

    /// `ExplainResult` of a finished explanation.
    pub fn explain_finish(&mut self, draw: u32) -> Result<JsValue, JsValue> {
        answer(self.inner.explain_finish(index(draw)))
    }

    /// Drops an unfinished explanation.
    pub fn explain_abandon(&mut self, draw: u32) {
        self.inner.explain_abandon(index(draw));
    }

    /// Goes on with replaying draw `draw` for about `budget` units of work; `Progress & { finished }`.
    pub fn replay_step(&mut self, draw: u32, budget: f64) -> Result<JsValue, JsValue> {
        // a JavaScript number: NaN, negatives and fractions clamp to at least 1 unit (`f64::max` drops a NaN), and the
        // cast saturates (+Infinity is "all of it")
        let budget = budget.max(1.0) as u64;
        answer(self.inner.replay_step(index(draw), budget))
    }

    /// `ReplaySummary` of a finished replay.
    pub fn replay_finish(&mut self, draw: u32) -> Result<JsValue, JsValue> {
        answer(self.inner.replay_finish(index(draw)))
    }

    /// Drops an unfinished replay.
    pub fn replay_abandon(&mut self, draw: u32) {
        self.inner.replay_abandon(index(draw));
    }

    /// `CompareResult`.
    pub fn compare(&mut self, draw: u32) -> Result<JsValue, JsValue> {
        answer(self.inner.compare(index(draw)))
    }

    /// `RenderedImage` of one image of a target under `display` (a `DisplayOptions`), resolved when asked.
    pub fn render_target(
        &mut self,
        draw: u32,
        target: &str,
        image: &str,
        display: JsValue,
        resolved: bool,
    ) -> Result<JsValue, JsValue> {
        let result = (|| {
            let target = TargetId::parse(target)?;
            let image = ImageKind::parse(image)?;
            let display: DisplayOptions = serde_wasm_bindgen::from_value(display)
                .map_err(|e| Error::new("request", format!("the display options are not valid: {e}")))?;
            self.inner.render_target(index(draw), target, image, &display, resolved)
        })();
        answer(result)
    }

    /// `RenderedImage`: a thumbnail of the draw's main target as recorded, at most `max_width` × `max_height`.
    pub fn thumbnail(&mut self, draw: u32, max_width: u32, max_height: u32) -> Result<JsValue, JsValue> {
        answer(self.inner.thumbnail(index(draw), max_width, max_height))
    }

    /// `TexelReadout`.
    pub fn read_texels(&mut self, draw: u32, target: &str, x: u32, y: u32) -> Result<JsValue, JsValue> {
        answer(TargetId::parse(target).and_then(|target| self.inner.read_texels(index(draw), target, x, y)))
    }

    /// `PixelCoord | null`: the next differing pixel after (x, y), wrapping.
    pub fn find_difference(
        &mut self,
        draw: u32,
        target: &str,
        x: u32,
        y: u32,
        backwards: bool,
    ) -> Result<JsValue, JsValue> {
        answer(
            TargetId::parse(target).and_then(|target| self.inner.find_difference(index(draw), target, x, y, backwards)),
        )
    }

    /// `PixelHistory`.
    pub fn inspect_pixel(&mut self, draw: u32, target: &str, x: u32, y: u32, sample: u32) -> Result<JsValue, JsValue> {
        answer(TargetId::parse(target).and_then(|target| self.inner.inspect_pixel(index(draw), target, x, y, sample)))
    }

    /// `ProgramTrace` of the pixel program for one fragment of a pixel.
    pub fn trace_pixel(&mut self, draw: u32, x: u32, y: u32, fragment: u32) -> Result<JsValue, JsValue> {
        answer(self.inner.trace_pixel(index(draw), x, y, fragment as usize))
    }

    /// `ProgramTrace` of the vertex program for one vertex.
    pub fn trace_vertex(&mut self, draw: u32, vertex_id: u32, instance_id: u32) -> Result<JsValue, JsValue> {
        answer(self.inner.trace_vertex(index(draw), vertex_id, instance_id))
    }

    /// Draw `draw`'s `stage` program (vs, ps, gs, hs, ds; edited, if it is) as a listing.
    pub fn program_listing(&mut self, draw: u32, stage: &str) -> Result<JsValue, JsValue> {
        answer(self.inner.program_listing(index(draw), stage))
    }

    /// `ProgramEditResult`: assembles `listing` and, if it assembles, makes it draw `draw`'s `stage` program for its
    /// next replays.
    pub fn set_program_edit(&mut self, draw: u32, stage: &str, listing: &str) -> Result<JsValue, JsValue> {
        answer(self.inner.set_program_edit(index(draw), stage, listing))
    }

    /// `EditChange[]`: per target, the texels the edit of draw `draw` changed from its replay as recorded.
    pub fn edit_changes(&mut self, draw: u32) -> Result<JsValue, JsValue> {
        answer(Ok::<_, crate::Error>(self.inner.edit_changes(index(draw))))
    }

    /// Drops draw `draw`'s edit of `stage` (of every stage when `stage` is empty).
    pub fn clear_program_edit(&mut self, draw: u32, stage: &str) -> Result<JsValue, JsValue> {
        let stage = (!stage.is_empty()).then_some(stage);
        answer(self.inner.clear_program_edit(index(draw), stage))
    }

    /// `DispatchResult`: replays dispatch `dispatch` (its list status then says how it compares).
    pub fn replay_dispatch(&mut self, dispatch: u32) -> Result<JsValue, JsValue> {
        answer(self.inner.replay_dispatch(index(dispatch)))
    }

    /// `RenderedImage` of one image of view `u{slot}` of a replayed dispatch under `display` (a `DisplayOptions`).
    pub fn render_dispatch_view(
        &mut self,
        dispatch: u32,
        slot: u32,
        image: &str,
        display: JsValue,
    ) -> Result<JsValue, JsValue> {
        let result = (|| {
            let image = ImageKind::parse(image)?;
            let display: DisplayOptions = serde_wasm_bindgen::from_value(display)
                .map_err(|e| Error::new("request", format!("the display options are not valid: {e}")))?;
            self.inner.render_dispatch_view(index(dispatch), slot, image, &display)
        })();
        answer(result)
    }

    /// `DispatchElement`: the element at (x, y) of view `u{slot}`'s image of a replayed dispatch, and its writers.
    pub fn inspect_dispatch_element(&mut self, dispatch: u32, slot: u32, x: u32, y: u32) -> Result<JsValue, JsValue> {
        answer(self.inner.inspect_dispatch_element(index(dispatch), slot, x, y))
    }

    /// `DispatchElement` of the hidden counter of view `u{slot}` of a replayed dispatch: who took or gave back slots.
    pub fn inspect_dispatch_counter(&mut self, dispatch: u32, slot: u32) -> Result<JsValue, JsValue> {
        answer(self.inner.inspect_dispatch_counter(index(dispatch), slot))
    }

    /// `Disassembly` of a draw's program of stage `stage` (`vs` or `ps`).
    pub fn disassemble(&mut self, draw: u32, stage: &str) -> Result<JsValue, JsValue> {
        answer(Stage::parse(stage).and_then(|stage| self.inner.disassemble(index(draw), stage)))
    }
}
