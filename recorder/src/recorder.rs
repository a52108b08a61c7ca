//! The recorder's facade: its global state (settings, whether a capture is running, the frame count) and every
//! entry point the hooks call. The hooks (`device`, `context`, `dxgi`) talk to this module alone; it alone talks
//! to the running capture (`capture`, which drives the readbacks and the writer's jobs), so the dependencies run
//! one way: hooks → recorder → capture → readback, job. A hook that finds no capture running (or finds itself
//! called from the recorder's own work) passes the call straight through: [`observing`] is one atomic load and one
//! thread-local read.

use crate::capture::ActiveCapture;
use crate::config::Settings;
use crate::event::EventCall;
use crate::log::log;
use iridia::api::draw::DrawCall;
use std::cell::Cell;
use std::ffi::c_void;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use windows::Win32::Graphics::Direct3D11::{ID3D11DeviceContext, ID3DUserDefinedAnnotation};
use windows::Win32::System::LibraryLoader::GetModuleFileNameW;
use windows::Win32::UI::Input::KeyboardAndMouse::GetAsyncKeyState;
use windows::core::Interface;

/// Whether a capture is running.
static CAPTURING: AtomicBool = AtomicBool::new(false);

/// `Present` calls so far.
static PRESENTS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Set while this thread runs the recorder's own work, so that the D3D11 calls it makes pass through the hooks.
    static INSIDE: Cell<bool> = const { Cell::new(false) };
}

/// The settings and the capture, if one is running.
pub struct Recorder {
    /// The settings, read once.
    pub settings: Settings,
    /// The executable's file name, for the manifest and the capture's name.
    pub application: String,
    /// The capture state.
    state: Mutex<State>,
}

/// What changes while the program runs.
struct State {
    /// The running capture.
    active: Option<ActiveCapture>,
    /// Captures written so far.
    captures: u32,
    /// Whether the capture key was down at the last `Present`.
    key_was_down: bool,
    /// When the trigger file was last looked for.
    last_trigger_check: Option<Instant>,
    /// The writer threads of ended captures still finishing their files.
    finishing: Vec<JoinHandle<()>>,
}

static RECORDER: OnceLock<Recorder> = OnceLock::new();

/// The executable's path.
fn executable() -> PathBuf {
    let mut buffer = vec![0u16; 32768];
    // SAFETY: the buffer is writable for its whole length; `None` names the executable.
    let length = unsafe { GetModuleFileNameW(None, &mut buffer) } as usize;
    PathBuf::from(String::from_utf16_lossy(buffer.get(..length).unwrap_or(&[])))
}

/// The recorder, set up on first use: settings read, log opened, a capture of frame 0 started if asked.
pub fn get() -> &'static Recorder {
    RECORDER.get_or_init(|| {
        let exe = executable();
        let exe_dir = exe.parent().map(PathBuf::from).unwrap_or_default();
        let file = std::fs::read_to_string(exe_dir.join("iridia-recorder.toml")).ok();
        let (settings, problems) = Settings::load(&exe_dir, file.as_deref(), |name| std::env::var(name).ok());
        crate::log::open(&settings.log_file);
        log!("iridia-recorder {} in {}", env!("CARGO_PKG_VERSION"), exe.display());
        for problem in problems {
            log!("setting skipped: {problem}");
        }
        log!("settings: {settings:?}");
        let application = exe
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Recorder {
            settings,
            application,
            state: Mutex::new(State {
                active: None,
                captures: 0,
                key_was_down: false,
                last_trigger_check: None,
                finishing: Vec::new(),
            }),
        }
    })
}

/// Called by each export that makes a device: sets the recorder up and starts a capture of frame 0 if asked.
pub fn start() {
    let recorder = get();
    if recorder.settings.enabled && recorder.settings.capture_frame == Some(0) && PRESENTS.load(Ordering::Relaxed) == 0
    {
        let mut state = recorder.lock();
        if state.active.is_none() && state.captures == 0 {
            recorder.begin(&mut state, 0);
        }
    }
}

impl Recorder {
    /// The state, even if a panicking thread poisoned its lock.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Starts a capture of the frame that begins after `presents` presents.
    fn begin(&self, state: &mut State, presents: u64) {
        let name = format!(
            "{}-frame{presents}-{}.iridia",
            self.application.trim_end_matches(".exe"),
            std::process::id()
        );
        let path = self.settings.output_dir.join(name);
        match ActiveCapture::new(
            &path,
            &self.application,
            &self.settings,
            presents + self.settings.capture_frames,
        ) {
            Ok(active) => {
                log!("capture started: frame {presents}, into {}", path.display());
                state.active = Some(active);
                state.captures += 1;
                CAPTURING.store(true, Ordering::Release);
            }
            Err(e) => log!("cannot start a capture into {}: {e}", path.display()),
        }
    }

    /// Ends the running capture. Its writer thread finishes the file on its own: the program's call (often a
    /// `Present`) does not wait for it; [`wait_for_writers`] does, where the program can wait.
    fn end(&self, state: &mut State) {
        CAPTURING.store(false, Ordering::Release);
        if let Some(writer) = state.active.take().and_then(ActiveCapture::finish) {
            log!("the capture's file is finished by its writer thread; the program goes on");
            state.finishing.push(writer);
        }
    }

    /// Whether the trigger file or key asks for a capture now.
    fn triggered(&self, state: &mut State) -> bool {
        let mut go = false;
        if let Some(key) = self.settings.capture_key {
            // SAFETY: `GetAsyncKeyState` only reads the keyboard state.
            let down = unsafe { GetAsyncKeyState(key as i32) } as u16 & 0x8000 != 0;
            if down && !state.key_was_down {
                log!("capture key pressed");
                go = true;
            }
            state.key_was_down = down;
        }
        if let Some(trigger) = &self.settings.trigger_file {
            let due = state
                .last_trigger_check
                .is_none_or(|last| last.elapsed() >= Duration::from_millis(250));
            if due {
                state.last_trigger_check = Some(Instant::now());
                if trigger.exists() {
                    log!("trigger file {} found", trigger.display());
                    let _ = std::fs::remove_file(trigger);
                    go = true;
                }
            }
        }
        go
    }
}

/// Called by the `Present` hooks before the real `Present`: counts the frame, ends a capture whose frames are
/// done, and starts one when the settings, the trigger file or the key ask.
pub fn on_present() {
    let recorder = get();
    if !recorder.settings.enabled || inside() {
        return;
    }
    let presents = PRESENTS.fetch_add(1, Ordering::AcqRel) + 1;
    let _inside = Inside::enter();
    guarded("Present", || present(recorder, presents));
}

/// [`on_present`]'s work, as the recorder's own.
fn present(recorder: &Recorder, presents: u64) {
    let mut state = recorder.lock();
    // writers that are done are joined (without waiting) so that their threads' resources go
    for writer in std::mem::take(&mut state.finishing) {
        if writer.is_finished() {
            join_writer(writer);
        } else {
            state.finishing.push(writer);
        }
    }
    if let Some(active) = &state.active
        && presents >= active.end_present
    {
        recorder.end(&mut state);
    }
    if state.active.is_none() {
        let asked = recorder.settings.capture_frame == Some(presents);
        if asked || recorder.triggered(&mut state) {
            recorder.begin(&mut state, presents);
        }
    }
}

/// Waits for the writer threads of ended captures to finish their files; called where the program tears down
/// (the last reference to a swap chain released: `why` says which), since a process that exits kills the thread
/// (its file then holds the manifest of its last snapshot).
pub fn wait_for_writers(why: &str) {
    let Some(recorder) = RECORDER.get() else {
        return;
    };
    let writers = std::mem::take(&mut recorder.lock().finishing);
    if writers.is_empty() {
        return;
    }
    log!("{why}: waiting for {} capture writer(s) to finish", writers.len());
    for writer in writers {
        join_writer(writer);
    }
}

/// Joins a finished or finishing writer thread, logging a panic.
fn join_writer(writer: JoinHandle<()>) {
    if writer.join().is_err() {
        log!("the writer thread panicked");
    }
}

/// Whether hooks should look at calls: a capture is running and the call is the program's, not the recorder's.
#[inline]
pub fn observing() -> bool {
    CAPTURING.load(Ordering::Relaxed) && !inside()
}

/// Whether a capture runs (on any thread; [`observing`] is this thread's view).
pub fn capturing() -> bool {
    CAPTURING.load(Ordering::Relaxed)
}

/// Whether this thread is running the recorder's own work.
#[inline]
pub fn inside() -> bool {
    INSIDE.with(Cell::get)
}

/// Marks this thread as running the recorder's work until dropped.
pub struct Inside {
    was: bool,
}

impl Inside {
    /// Enters the recorder's work.
    pub fn enter() -> Self {
        Self {
            was: INSIDE.with(|inside| inside.replace(true)),
        }
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        let was = self.was;
        INSIDE.with(|inside| inside.set(was));
    }
}

/// Runs `work` on the running capture, if there is one, as the recorder's own work. Gives `None` when no capture
/// runs (it may have ended on another thread).
pub fn with_capture<T>(work: impl FnOnce(&mut ActiveCapture) -> T) -> Option<T> {
    let recorder = get();
    let _inside = Inside::enter();
    guarded("recording", || {
        let mut state = recorder.lock();
        let active = state.active.as_mut()?;
        let result = work(active);
        if active.full(recorder.settings.max_draws) {
            log!("capture reached max_draws; ending it");
            recorder.end(&mut state);
        }
        Some(result)
    })
    .flatten()
}

/// Runs the recorder's own `work` (named `what` in the log), catching a panic so that it never unwinds into the
/// program (through an `extern "system"` hook a panic would end the process): the panic is logged, the running
/// capture abandoned (its file is left as the last snapshot wrote it) and the program's call goes on.
pub fn guarded<T>(what: &str, work: impl FnOnce() -> T) -> Option<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(result) => Some(result),
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_owned());
            log!("the recorder failed while {what} ({message}); the capture is abandoned, the program goes on");
            CAPTURING.store(false, Ordering::Release);
            let abandoned = get().lock().active.take();
            // its writer thread is stopped by the drop; a second panic there is caught too
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || drop(abandoned)));
            None
        }
    }
}

// What the hooks report. Each passes the call on to the running capture, if there is one, as the recorder's own
// work; the hooks know only these functions, not the capture behind them.

/// Records a draw on the context `this` while a capture runs; `run` makes the real draw, exactly once.
pub fn record_draw(this: *mut c_void, call: DrawCall, run: impl FnOnce()) {
    let mut run = Some(run);
    let mut draw = || {
        if let Some(run) = run.take() {
            run();
        }
    };
    with_capture(|active| active.record_draw(this, call, &mut draw));
    draw();
}

/// Records a `ResolveSubresource` on the context `this` while a capture runs; `run` makes the real resolve, exactly
/// once.
pub fn record_resolve(this: *mut c_void, call: crate::capture::ResolveCall, run: impl FnOnce()) {
    let mut run = Some(run);
    let mut resolve = || {
        if let Some(run) = run.take() {
            run();
        }
    };
    with_capture(|active| active.record_resolve(this, call, &mut resolve));
    resolve();
}

/// Records `DrawInstancedIndirect` (`indexed` false) or `DrawIndexedInstancedIndirect` on the context `this` while
/// a capture runs; `run` makes the real indirect draw, exactly once.
pub fn record_indirect_draw(this: *mut c_void, indexed: bool, args: *mut c_void, offset: u32, run: impl FnOnce()) {
    let mut run = Some(run);
    let mut draw = || {
        if let Some(run) = run.take() {
            run();
        }
    };
    with_capture(|active| active.record_indirect_draw(this, indexed, args, offset, &mut draw));
    draw();
}

/// Records a `Dispatch` (`groups`) or `DispatchIndirect` (`indirect`: the argument buffer and offset) on the
/// context `this` while a capture runs; `run` makes the real dispatch, exactly once.
pub fn record_dispatch(this: *mut c_void, groups: [u32; 3], indirect: Option<(*mut c_void, u32)>, run: impl FnOnce()) {
    let mut run = Some(run);
    let mut dispatch = || {
        if let Some(run) = run.take() {
            run();
        }
    };
    with_capture(|active| active.record_dispatch(this, groups, indirect, &mut dispatch));
    dispatch();
}

/// Records `DrawAuto` on the context `this` while a capture runs; `run` makes the real draw, exactly once.
pub fn record_auto(this: *mut c_void, run: impl FnOnce()) {
    let mut run = Some(run);
    let mut draw = || {
        if let Some(run) = run.take() {
            run();
        }
    };
    with_capture(|active| active.record_auto(this, &mut draw));
    draw();
}

/// Records an event (a clear, copy, update or mip generation) made on the context `context` while a capture runs.
pub fn record_event(context: *mut c_void, call: EventCall) {
    with_capture(|active| active.record_event(context, call));
}

/// Records a marker event made through the `ID3DUserDefinedAnnotation` interface `annotation` of a context while a
/// capture runs: placed by the context it belongs to (found through `QueryInterface`).
pub fn record_annotation(annotation: *mut c_void, call: EventCall) {
    let _inside = Inside::enter();
    // SAFETY: `annotation` is the live interface the hooked call was made on; borrowing adds no reference.
    let Some(context) = (unsafe { ID3DUserDefinedAnnotation::from_raw_borrowed(&annotation) })
        .and_then(|a| a.cast::<ID3D11DeviceContext>().ok())
    else {
        return;
    };
    with_capture(|active| active.record_event(context.as_raw(), call));
}

/// Records an event made on no context (`D3DPERF_*`, `crate::perf_markers`) where it comes in the frame.
pub fn record_unbound_event(call: EventCall) {
    with_capture(|active| active.record_unbound_event(call));
}

/// Notes that the resource at `resource` (a raw `ID3D11Resource`) was written.
pub fn wrote(resource: *mut c_void) {
    if resource.is_null() {
        return;
    }
    with_capture(|active| active.wrote(resource));
}

/// Notes that the resource of the view `view` (a raw `ID3D11View`) was written.
pub fn wrote_view(view: *mut c_void) {
    if view.is_null() {
        return;
    }
    with_capture(|active| active.wrote_view(view));
}

/// Notes that the resource at `resource` (a raw `ID3D11Resource`) was discarded: its contents are undefined.
pub fn discarded(resource: *mut c_void) {
    if resource.is_null() {
        return;
    }
    with_capture(|active| active.discarded(resource));
}

/// Notes that the resource of the view `view` (a raw `ID3D11View`) was discarded.
pub fn discarded_view(view: *mut c_void) {
    if view.is_null() {
        return;
    }
    with_capture(|active| active.discarded_view(view));
}

/// Carries the draws a deferred context recorded into the command list it just finished.
pub fn finished_list(context: *mut c_void, list: *mut c_void) {
    with_capture(|active| active.finished_list(context, list));
}

/// After a command list ran on `context`: on the immediate context, its draws are read back and written; on a
/// deferred one, they join that context's draws.
pub fn executed_list(context: *mut c_void, list: *mut c_void) {
    with_capture(|active| active.executed_list(context, list));
}
