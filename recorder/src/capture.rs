//! A running capture: recording each draw, tracking which resources were written since they were read, and
//! carrying deferred contexts' draws to where their command lists run.
//!
//! **Per draw** (on the draw's context, before the real draw): the state through the `*Get*` calls; a staging copy of
//! each bound resource not read since it was last written (a *generation* per resource, bumped by every hooked call
//! that writes it, and an *epoch* that calls writing who-knows-what — a dispatch or draw that was not recorded,
//! `ExecuteCommandList` — bump); each target's surface unless the recorder still holds what the last draw left in it
//! and nothing else wrote it since. After the real draw: each target again, only within the first viewport (and scissor
//! rectangle, when enabled) — nothing outside can change (15.6, 15.7) — except depth-stencil targets, which D3D11
//! copies only whole. Predication is switched off around the recorder's copies and restored. On the immediate context
//! the copies are then mapped at once (one wait per draw); on a deferred context they travel in the command list and
//! are mapped after `ExecuteCommandList`.
//!
//! Beyond the targets, a draw records what else it writes: the unordered access views bound with the render
//! targets (each resource whole before and after, an append or counter view's hidden counter through
//! `CopyStructureCount`, 5.3.9) and stream output (each buffer whole before and after, with the offset its first
//! vertex went to, 14.4: see [`ActiveCapture::filled`]). Indirect draws and `DrawAuto` are recorded as the direct
//! calls they amount to, dispatches (section 18) with their compute stage and views, in their place in the frame.
//! The frame's events (format 1.5: the program's markers, clears, copies, updates) are sent in the same order
//! ([`ActiveCapture::record_event`]), a deferred context's in its command list.

use crate::config::Settings;
use crate::event::EventCall;
use crate::job::{
    DispatchJob, DrawJob, Indirect, ResourceJob, StageJob, StreamOutputJob, TargetJob, TargetView, UavJob, WriterThread,
};
use crate::layout::{Conversion, Layout};
use crate::log::log;
use crate::msaa::SampleReader;
use crate::private_data::{DXBC_KEY, LAYOUT_KEY, STREAM_OUTPUT_KEY, private_data};
use crate::readback::{
    Bytes, Described, Predication, Region, Staging, StagingDesc, StagingPool, describe, map_rows, splice_region,
};
use iridia::api::draw::{DrawCall, IndexFormat};
use iridia::api::limits::{CONSTANT_BUFFER_CONSTANTS, RENDER_TARGET_SLOTS};
use iridia::api::resource::TextureShape;
use iridia::capture::convert::Surface;
use iridia::capture::{UnrecordedDrawEntry, UnrecordedTargetEntry};
use std::collections::{HashMap, HashSet};
use std::ffi::c_void;
use std::path::Path;
use std::sync::Arc;
use windows::Win32::Foundation::RECT;
use windows::Win32::Graphics::Direct3D11::*;
use windows::Win32::Graphics::Dxgi::Common::DXGI_FORMAT;
use windows::core::Interface;

/// A failure, as text for the log.
type Result<T> = std::result::Result<T, String>;

/// Where a piece of a draw's data comes from: bytes the recorder holds, or subresource `.1` of pending read `.0`.
#[derive(Clone)]
pub enum DataRef {
    /// Already read.
    Ready(Bytes),
    /// To be read.
    Read(usize, usize),
}

/// What a pending read reads.
enum ReadKind {
    /// A whole buffer.
    Buffer { bytes: usize },
    /// A whole texture, every subresource.
    Texture { shape: TextureShape },
    /// One surface (the staging is that surface's size).
    Surface { shape: TextureShape },
    /// A region of a surface laid over `base`, the whole surface before.
    Region {
        surface: TextureShape,
        region: Region,
        region_shape: TextureShape,
        base: DataRef,
    },
}

/// What a read's result refreshes in the recorder's caches.
enum CacheNote {
    /// A resource's whole contents, read at this generation and epoch; the reference keeps the resource (and so
    /// its address) alive while the capture runs.
    Resource {
        key: usize,
        generation: u64,
        epoch: u64,
        keep: ID3D11Resource,
    },
    /// One surface of a target, as a draw left it.
    Surface {
        key: (usize, u32),
        generation: u64,
        epoch: u64,
        keep: ID3D11Resource,
    },
}

/// A staging copy issued and not yet mapped.
struct Read {
    staging: Staging,
    kind: ReadKind,
    cache: Option<CacheNote>,
    /// What turns the mapped texels into D3D11's layout (the probe's finding for the staging's format).
    convert: Conversion,
}

/// A `ResolveSubresource` call's arguments.
pub struct ResolveCall {
    /// The destination resource (a raw `ID3D11Resource`).
    pub destination: *mut c_void,
    /// The destination subresource.
    pub destination_subresource: u32,
    /// The source resource (a raw `ID3D11Resource`).
    pub source: *mut c_void,
    /// The source subresource.
    pub source_subresource: u32,
    /// The resolve format.
    pub format: DXGI_FORMAT,
}

/// A draw recorded on a deferred context, waiting for its command list to run.
struct PendingDraw {
    job: DrawJob<DataRef>,
    reads: Vec<Read>,
}

/// A dispatch recorded on a deferred context, waiting for its command list to run.
struct PendingDispatch {
    job: DispatchJob<DataRef>,
    reads: Vec<Read>,
}

/// What a deferred context's command list carries to where it runs, in submission order: a recorded draw or
/// dispatch, the entry of a draw that could not be recorded, or an event (a marker, clear, copy or update).
enum Pending {
    /// A draw with its reads.
    Draw(Box<PendingDraw>),
    /// A dispatch with its reads.
    Dispatch(Box<PendingDispatch>),
    /// A draw listed as not recorded.
    Unrecorded(UnrecordedDrawEntry),
    /// An event (its kind and text: `crate::event`).
    Event(&'static str, Option<String>),
}

/// A resource's contents as last read.
struct CachedResource {
    generation: u64,
    epoch: u64,
    data: ResourceJob<Bytes>,
    _keep: ID3D11Resource,
}

/// A target surface's contents as a draw left them.
struct CachedSurface {
    generation: u64,
    epoch: u64,
    data: Bytes,
    _keep: ID3D11Resource,
}

/// The capture being recorded.
pub struct ActiveCapture {
    /// The `Present` count at which the capture ends.
    pub end_present: u64,
    writer: WriterThread,
    draws: u64,
    /// [`Settings::fault_panic_draw`].
    fault_panic_draw: Option<u64>,
    skipped: u64,
    /// Resolves recorded.
    resolves: u64,
    /// Dispatches recorded.
    dispatches: u64,
    /// Events sent to the writer (format 1.5's `events`).
    events: u64,
    /// The filled size of each buffer a recorded draw streamed to (D3D11.3 14.4's `BufferFilledSize`, which D3D11
    /// keeps with the buffer and never gives out): the offset the draw started at plus what its
    /// `D3D11_QUERY_SO_STATISTICS_STREAMn` query counted written (primitives times vertices a primitive times the
    /// slot's stride; 14.5). A query is the one way the API tells how much a draw streamed; reading the buffer cannot
    /// tell written bytes from bytes that were there. The reference keeps the buffer (and its address) alive.
    filled: HashMap<usize, (u32, ID3D11Resource)>,
    /// `crate::stream_out::sequence()` when the capture started: bindings made before it may have been streamed
    /// through by draws the capture did not see.
    stream_out_start: u64,
    generations: HashMap<usize, u64>,
    next_generation: u64,
    epoch: u64,
    resources: HashMap<usize, CachedResource>,
    surfaces: HashMap<(usize, u32), CachedSurface>,
    /// Resources whose contents were discarded (`DiscardResource`, `DiscardView*`, a swap chain's back buffer after
    /// `Present`) and not written since: each is read through a new staging copy, never a pooled one, because
    /// Wine's d3d11 copies nothing from a discarded resource into a staging resource that already holds data (it
    /// leaves the old contents where the device reads zeros).
    discarded: HashSet<usize>,
    /// Resources read in this capture. The first read of each is through a new staging copy too: what happened to
    /// it before the capture (a `Present` discarding a back buffer) was not seen.
    seen: HashSet<usize>,
    pool: StagingPool,
    deferred: HashMap<usize, Vec<Pending>>,
    lists: HashMap<usize, (ID3D11CommandList, Vec<Pending>)>,
    unrecorded: HashMap<&'static str, u64>,
    /// The readback layout probe's findings, by device and DXGI format (see `crate::probe`).
    layouts: HashMap<(usize, i32), Layout>,
    /// Reads multisampled targets' samples.
    samples: SampleReader,
    /// Time spent recording draws on the immediate context (reads issued and mapped, the draw itself), for the
    /// log: (draws, total) for draws with a multisampled target and for the others.
    timing: [(u64, std::time::Duration); 2],
}

impl ActiveCapture {
    /// Starts a capture of `application` into `path` that ends at `Present` number `end_present`.
    pub fn new(path: &Path, application: &str, settings: &Settings, end_present: u64) -> Result<Self> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let writer = WriterThread::start(
            path,
            application,
            settings.deflate_level,
            settings.snapshot_draws,
            std::time::Duration::from_millis(settings.fault_writer_delay_ms),
        )?;
        Ok(Self {
            end_present,
            writer,
            draws: 0,
            fault_panic_draw: settings.fault_panic_draw,
            skipped: 0,
            resolves: 0,
            dispatches: 0,
            events: 0,
            filled: HashMap::new(),
            stream_out_start: crate::stream_out::sequence(),
            generations: HashMap::new(),
            next_generation: 1,
            epoch: 0,
            resources: HashMap::new(),
            surfaces: HashMap::new(),
            discarded: HashSet::new(),
            seen: HashSet::new(),
            pool: StagingPool::default(),
            deferred: HashMap::new(),
            lists: HashMap::new(),
            unrecorded: HashMap::new(),
            layouts: HashMap::new(),
            samples: SampleReader::default(),
            timing: Default::default(),
        })
    }

    /// Whether the capture holds `max_draws` draws.
    pub fn full(&self, max_draws: Option<u64>) -> bool {
        max_draws.is_some_and(|most| self.draws >= most)
    }

    /// Ends the capture: logs what was left out and lets the writer thread finish the file; gives that thread.
    pub fn finish(self) -> Option<std::thread::JoinHandle<()>> {
        let pending: usize = self.deferred.values().map(Vec::len).sum::<usize>()
            + self.lists.values().map(|(_, draws)| draws.len()).sum::<usize>();
        if pending > 0 {
            log!("{pending} draws and events recorded on deferred contexts never ran in the capture: not written");
        }
        for (call, count) in &self.unrecorded {
            log!("{count} {call} calls are not recorded (the log says why)");
        }
        let [multisampled, single] = self.timing.map(|(draws, total)| {
            let each = total.as_secs_f64() * 1000.0 / draws.max(1) as f64;
            format!("{draws} ({each:.2} ms each)")
        });
        log!(
            "recording time on the immediate context: draws with a multisampled target {multisampled}, others {single}"
        );
        log!(
            "capture ended: {} draws recorded, {} skipped, {} resolves recorded, {} dispatches recorded, {} events \
             recorded, {} staging resources made",
            self.draws,
            self.skipped,
            self.resolves,
            self.dispatches,
            self.events,
            self.pool.created
        );
        self.writer.close()
    }

    /// The generation of the resource at `key`.
    fn generation(&self, key: usize) -> u64 {
        self.generations.get(&key).copied().unwrap_or(0)
    }

    /// Marks the resource at `key` written.
    fn bump(&mut self, key: usize) {
        self.next_generation += 1;
        self.generations.insert(key, self.next_generation);
        self.discarded.remove(&key);
    }

    /// Marks the resource at `key` written with undefined contents (see [`ActiveCapture::discarded`]).
    fn discard_contents(&mut self, key: usize) {
        self.bump(key);
        self.discarded.insert(key);
    }

    /// Runs the readback layout probe on `device` for every probed format, once per capture and device, and logs
    /// what it found.
    fn probe_layouts(&mut self, device: &ID3D11Device) {
        let key = device.as_raw() as usize;
        for (format, view_format) in crate::probe::PROBED {
            if self.layouts.contains_key(&(key, format.0)) {
                continue;
            }
            let layout = crate::probe::probe(device, format, view_format);
            let name = crate::probe::format_name(format);
            match &layout {
                Layout::Known(Conversion::None) => log!("readback layout probe: {name} reads back in D3D11's layout"),
                Layout::Known(Conversion::D24S8FromGl) => log!(
                    "readback layout probe: {name} reads back in OpenGL's packing (depth24 << 8 | stencil); \
                     converted to D3D11's"
                ),
                Layout::Known(Conversion::D32S8FromHighStencil) => log!(
                    "readback layout probe: {name} reads back with the stencil in bits 24-31 of the second word; \
                     converted to D3D11's"
                ),
                Layout::Unknown(why) => log!("readback layout probe: {name}: {why}; its draws are not recorded"),
            }
            self.layouts.insert((key, format.0), layout);
        }
    }

    /// How readbacks of a resource of DXGI format `format` on `device` are converted to D3D11's layout; an error
    /// (the reason a draw is not recorded) when the probe could not tell.
    fn conversion(&mut self, device: &ID3D11Device, format: DXGI_FORMAT) -> Result<Conversion> {
        self.probe_layouts(device);
        match self.layouts.get(&(device.as_raw() as usize, format.0)) {
            None => Ok(Conversion::None),
            Some(Layout::Known(conversion)) => Ok(*conversion),
            Some(Layout::Unknown(why)) => Err(format!(
                "the readback layout of {} on this device is unknown: {why}",
                crate::probe::format_name(format)
            )),
        }
    }

    /// A staging resource of `desc` for reading the resource at `key`: a new one if its contents were discarded or
    /// it is the first read of the resource in this capture.
    fn staging_for(&mut self, device: &ID3D11Device, key: usize, desc: StagingDesc) -> Result<Staging> {
        let first_read = self.seen.insert(key);
        if first_read || self.discarded.contains(&key) {
            self.pool.create(device, desc)
        } else {
            self.pool.acquire(device, desc)
        }
    }

    /// Records one draw: reads, the real draw (`draw`, called exactly once if this returns `Ok(true)`), reads
    /// after. `Ok(false)`: nothing was done, the caller draws.
    fn record(
        &mut self,
        context: &ID3D11DeviceContext,
        call: DrawCall,
        indirect: Option<Indirect>,
        auto: bool,
        arguments: Option<ArgumentsPlan>,
        draw: &mut dyn FnMut(),
    ) -> Result<bool> {
        // SAFETY: a live context; `GetType` only reads it.
        let deferred = unsafe { context.GetType() } == D3D11_DEVICE_CONTEXT_DEFERRED;
        // SAFETY: a live context; the device is AddRef'd and released on drop.
        let device = unsafe { context.GetDevice() }.map_err(|e| format!("GetDevice failed: {e}"))?;
        self.probe_layouts(&device);
        let started = std::time::Instant::now();
        let mut plan = query(context, &device, call, indirect, auto)?;
        plan.arguments = arguments;
        let streams = match &mut plan.stream_output {
            Some(so) if !so.targets.is_empty() => {
                if deferred {
                    return Err(
                        "stream output on a deferred context: what it streamed is counted by a query the \
                                recorder reads on the immediate context only"
                            .into(),
                    );
                }
                self.stream_offsets(context, so)?;
                Some(stream_queries(&device, so)?)
            }
            _ => None,
        };
        let timing = usize::from(!plan.targets.iter().any(|t| t.shape.sample_count > 1));
        let mut reads: Vec<Read> = Vec::new();
        let suspended = Predication::suspend(context);
        let gathered = self.gather(context, &device, &plan, deferred, &mut reads);
        let (job, befores) = match gathered {
            Ok(gathered) => gathered,
            Err(e) => {
                suspended.restore(context);
                self.discard(reads, deferred);
                return Err(e);
            }
        };
        suspended.restore(context);
        for (_, query) in streams.iter().flatten() {
            // SAFETY: a live context and query.
            unsafe { context.Begin(query) };
        }
        draw();
        for (_, query) in streams.iter().flatten() {
            // SAFETY: a live context and query, begun above.
            unsafe { context.End(query) };
        }
        // From here on the draw has run: a failure skips its record only.
        let suspended = Predication::suspend(context);
        let mut job = job;
        let afters = self
            .read_afters(context, &device, &plan, &befores, deferred, &mut reads)
            .and_then(|afters| {
                self.read_uav_afters(context, &device, &plan.uavs, &mut job.uavs, deferred, &mut reads)?;
                self.read_stream_afters(context, &device, &plan, &mut job, &mut reads)?;
                Ok(afters)
            });
        suspended.restore(context);
        let afters = match afters {
            Ok(afters) => afters,
            Err(e) => {
                self.discard(reads, deferred);
                let entry = unrecorded_entry(&job, e, context_name(context));
                self.list_unrecorded(context, deferred, entry);
                if let (Some(so), Some(streams)) = (&plan.stream_output, &streams) {
                    self.streamed(context, so, streams);
                }
                return Ok(true);
            }
        };
        for ((target, before), after) in job.targets.iter_mut().zip(befores).zip(afters) {
            target.before = before;
            target.after = after;
        }
        if deferred {
            self.deferred
                .entry(context.as_raw() as usize)
                .or_default()
                .push(Pending::Draw(Box::new(PendingDraw { job, reads })));
        } else {
            self.complete(context, PendingDraw { job, reads }, false);
            if let (Some(so), Some(streams)) = (&plan.stream_output, &streams) {
                self.streamed(context, so, streams);
            }
            if let Some((draws, total)) = self.timing.get_mut(timing) {
                *draws = draws.saturating_add(1);
                *total = total.saturating_add(started.elapsed());
            }
        }
        Ok(true)
    }

    /// Gives the stagings of reads that will not be mapped back (a deferred context's may still be written by
    /// its command list, so they are dropped, not reused).
    fn discard(&mut self, reads: Vec<Read>, deferred: bool) {
        if !deferred {
            for read in reads {
                self.pool.release(read.staging);
            }
        }
    }

    /// Maps a draw's reads on the immediate context `context`, refreshes the caches, and sends the draw to the
    /// writer.
    fn complete(&mut self, context: &ID3D11DeviceContext, pending: PendingDraw, from_command_list: bool) {
        let results = match self.map_reads(context, pending.reads, from_command_list) {
            Ok(results) => results,
            Err(e) => {
                let entry = unrecorded_entry(&pending.job, e, listed_context(from_command_list));
                self.list_unrecorded(context, false, entry);
                return;
            }
        };
        let entry_if_lost = unrecorded_entry(&pending.job, String::new(), listed_context(from_command_list));
        let mapped = pending.job.map(&mut |data| match data {
            DataRef::Ready(bytes) => Ok(bytes),
            DataRef::Read(read, sub) => results
                .get(read)
                .and_then(|r| r.get(sub))
                .cloned()
                .ok_or_else(|| "a read gave fewer subresources than expected".to_owned()),
        });
        let mapped = mapped.and_then(|mut job| {
            if let Some(arguments) = job.arguments.take() {
                let words: Vec<u32> = arguments
                    .chunks_exact(4)
                    .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                    .collect();
                job.call = call_from_arguments(job.call, &words)?;
            }
            Ok(job)
        });
        match mapped {
            Ok(job) => {
                self.draws += 1;
                self.writer.send(job);
            }
            Err(e) => {
                let entry = UnrecordedDrawEntry {
                    reason: e,
                    ..entry_if_lost
                };
                self.list_unrecorded(context, false, entry);
            }
        }
    }

    /// Maps reads on the immediate context `context`, in order, refreshing the caches; gives each read's
    /// subresources, or the first failure. The stagings go back to the pool unless they came in a command list.
    fn map_reads(
        &mut self,
        context: &ID3D11DeviceContext,
        reads: Vec<Read>,
        from_command_list: bool,
    ) -> Result<Vec<Vec<Bytes>>> {
        let mut results: Vec<Vec<Bytes>> = Vec::with_capacity(reads.len());
        let mut failure = None;
        for read in reads {
            let result = if failure.is_none() {
                resolve_read(context, &read, &results)
            } else {
                Err(String::new())
            };
            match result {
                Ok(data) => {
                    match &read.cache {
                        Some(CacheNote::Resource {
                            key,
                            generation,
                            epoch,
                            keep,
                        }) => {
                            let data = match &read.kind {
                                ReadKind::Texture { shape } => ResourceJob::Texture(*shape, data.clone()),
                                _ => ResourceJob::Buffer(data.first().cloned().unwrap_or_else(|| Arc::new(Vec::new()))),
                            };
                            self.resources.insert(
                                *key,
                                CachedResource {
                                    generation: *generation,
                                    epoch: *epoch,
                                    data,
                                    _keep: keep.clone(),
                                },
                            );
                        }
                        Some(CacheNote::Surface {
                            key,
                            generation,
                            epoch,
                            keep,
                        }) => {
                            if let Some(bytes) = data.first() {
                                self.surfaces.insert(
                                    *key,
                                    CachedSurface {
                                        generation: *generation,
                                        epoch: *epoch,
                                        data: bytes.clone(),
                                        _keep: keep.clone(),
                                    },
                                );
                            }
                        }
                        None => {}
                    }
                    results.push(data);
                }
                Err(e) => {
                    if failure.is_none() {
                        failure = Some(e);
                    }
                    results.push(Vec::new());
                }
            }
            if !from_command_list {
                self.pool.release(read.staging);
            }
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(results),
        }
    }

    /// Lists a draw that was not recorded: logged, counted, and — on the immediate context at once, on a deferred
    /// one where its command list runs — sent to the writer as an entry of `unrecorded_draws`. What the draw wrote
    /// is unknown to the recorder, so every cached content is stale from here on (the epoch moves).
    fn list_unrecorded(&mut self, context: &ID3D11DeviceContext, deferred: bool, entry: UnrecordedDrawEntry) {
        self.skipped += 1;
        self.epoch += 1;
        log!(
            "draw not recorded: {}: {}",
            entry.api_call.as_deref().unwrap_or("a draw"),
            entry.reason
        );
        if deferred {
            self.deferred
                .entry(context.as_raw() as usize)
                .or_default()
                .push(Pending::Unrecorded(entry));
        } else {
            self.writer.send_unrecorded(entry);
        }
    }

    /// Issues a staging copy of the whole `resource` (or finds its contents in the cache) and gives where its data
    /// will be.
    fn read_resource(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        resource: &ID3D11Resource,
        deferred: bool,
        reads: &mut Vec<Read>,
    ) -> Result<ResourceJob<DataRef>> {
        let key = resource.as_raw() as usize;
        let generation = self.generation(key);
        if !deferred
            && let Some(cached) = self.resources.get(&key)
            && cached.generation == generation
            && cached.epoch == self.epoch
        {
            return Ok(match &cached.data {
                ResourceJob::Buffer(data) => ResourceJob::Buffer(DataRef::Ready(data.clone())),
                ResourceJob::Texture(shape, subresources) => {
                    ResourceJob::Texture(*shape, subresources.iter().cloned().map(DataRef::Ready).collect())
                }
            });
        }
        let described = describe(resource)?;
        if let Described::Texture { shape, .. } = &described
            && shape.sample_count > 1
        {
            return Err(format!(
                "a multisampled resource ({} samples) bound where the recorder reads no samples",
                shape.sample_count
            ));
        }
        let convert = match described {
            Described::Texture { format, .. } => self.conversion(device, format)?,
            Described::Buffer { .. } => Conversion::None,
        };
        let staging = self.staging_for(device, key, StagingDesc::whole(&described))?;
        // SAFETY: both resources are live; the staging copy has the source's description but for usage and bind
        // flags, as `CopyResource` requires.
        unsafe { context.CopyResource(&staging.resource, resource) };
        let index = reads.len();
        let cache = (!deferred).then(|| CacheNote::Resource {
            key,
            generation,
            epoch: self.epoch,
            keep: resource.clone(),
        });
        let (kind, job) = match described {
            Described::Buffer { bytes } => (
                ReadKind::Buffer { bytes: bytes as usize },
                ResourceJob::Buffer(DataRef::Read(index, 0)),
            ),
            Described::Texture { shape, .. } => {
                let count = shape.subresource_count() as usize;
                (
                    ReadKind::Texture { shape },
                    ResourceJob::Texture(shape, (0..count).map(|sub| DataRef::Read(index, sub)).collect()),
                )
            }
        };
        reads.push(Read {
            staging,
            kind,
            cache,
            convert,
        });
        Ok(job)
    }

    /// Issues a staging copy of a target's whole written surface and gives where it will be.
    fn read_surface(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        target: &TargetPlan,
        cache: Option<CacheNote>,
        reads: &mut Vec<Read>,
    ) -> Result<DataRef> {
        if target.shape.sample_count > 1 {
            return self.read_samples(context, device, target, cache, reads);
        }
        let convert = self.conversion(device, target.format)?;
        let desc = StagingDesc::surface(&target.shape, target.format, target.surface.level);
        let staging = self.staging_for(device, target.resource.as_raw() as usize, desc)?;
        let source_box = (target.shape.dimension == iridia::api::enums::ResourceDimension::Texture3D).then(|| {
            let [width, height, _] = target.shape.mip_size(target.surface.level);
            D3D11_BOX {
                left: 0,
                top: 0,
                front: target.surface.slice,
                right: width,
                bottom: height,
                back: target.surface.slice + 1,
            }
        });
        // SAFETY: both resources are live; the staging texture has the surface's size and the resource's format;
        // the box (3D only) lies within the subresource.
        unsafe {
            context.CopySubresourceRegion(
                &staging.resource,
                0,
                0,
                0,
                0,
                &target.resource,
                target.subresource,
                source_box.as_ref().map(|b| b as *const D3D11_BOX),
            )
        };
        let shape = staging.desc().shape(target.shape.format);
        reads.push(Read {
            staging,
            kind: ReadKind::Surface { shape },
            cache,
            convert,
        });
        Ok(DataRef::Read(reads.len() - 1, 0))
    }

    /// Issues the reading of a multisampled target's every sample (`crate::msaa`: drawn out as stacked planes on
    /// the draw's context, then an ordinary staging copy) and gives where the planes will be.
    fn read_samples(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        target: &TargetPlan,
        cache: Option<CacheNote>,
        reads: &mut Vec<Read>,
    ) -> Result<DataRef> {
        let depth = matches!(target.view, TargetView::DepthStencil(_));
        let planes = self.samples.read(
            context,
            device,
            &target.resource,
            &target.shape,
            target.view_format,
            depth,
        )?;
        let staging = self
            .pool
            .acquire(device, StagingDesc::surface(&planes.shape, planes.format, 0))?;
        // SAFETY: both resources are live single-sampled textures of one size and format.
        unsafe { context.CopyResource(&staging.resource, &planes.texture) };
        reads.push(Read {
            staging,
            kind: ReadKind::Surface { shape: planes.shape },
            cache,
            // The depth program packs D24S8 in D3D11's layout itself; colours need nothing.
            convert: Conversion::None,
        });
        Ok(DataRef::Read(reads.len() - 1, 0))
    }

    /// Issues the reading of a multisampled texture a shader reads through `view`: its every sample, as for a
    /// multisampled target (`crate::msaa`), through the view's format (colour formats and depth data viewed as
    /// R32_FLOAT or R16_UNORM; not the depth-stencil families' X8/G8 views). Read anew at each draw (not cached).
    fn read_multisampled_resource(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        resource: &ID3D11Resource,
        shape: &TextureShape,
        view: &iridia::api::resource::ShaderResourceViewDesc,
        reads: &mut Vec<Read>,
    ) -> Result<ResourceJob<DataRef>> {
        use iridia::format::Format as F;
        let format = match view.format {
            F::Unknown => shape.format,
            format => format,
        };
        if matches!(
            format,
            F::R24UnormX8Typeless | F::X24TypelessG8Uint | F::R32FloatX8X24Typeless | F::X32TypelessG8X24Uint
        ) {
            return Err(format!(
                "a multisampled shader resource viewed as {format}: the recorder reads the samples of colour views, \
                 R32_FLOAT and R16_UNORM only"
            ));
        }
        let view_format = DXGI_FORMAT(i32::try_from(format.value()).map_err(|e| e.to_string())?);
        self.read_sample_planes(context, device, resource, shape, view_format, reads)?;
        Ok(ResourceJob::Texture(*shape, vec![DataRef::Read(reads.len() - 1, 0)]))
    }

    /// Issues the reading of every sample of multisampled `resource` through `format` (`crate::msaa`: its sample
    /// planes in a single-sampled array, copied to staging), as the last of `reads`.
    fn read_sample_planes(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        resource: &ID3D11Resource,
        shape: &TextureShape,
        format: DXGI_FORMAT,
        reads: &mut Vec<Read>,
    ) -> Result<()> {
        let planes = self.samples.read(context, device, resource, shape, format, false)?;
        let staging = self
            .pool
            .acquire(device, StagingDesc::surface(&planes.shape, planes.format, 0))?;
        // SAFETY: both resources are live single-sampled textures of one size and format.
        unsafe { context.CopyResource(&staging.resource, &planes.texture) };
        reads.push(Read {
            staging,
            kind: ReadKind::Surface { shape: planes.shape },
            cache: None,
            convert: Conversion::None,
        });
        Ok(())
    }

    /// The reads before the draw: every bound resource and each target's surface.
    fn gather(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        plan: &DrawPlan,
        deferred: bool,
        reads: &mut Vec<Read>,
    ) -> Result<(DrawJob<DataRef>, Vec<DataRef>)> {
        let mut vertex_buffers = Vec::new();
        for (slot, buffer, stride, offset) in &plan.vertex_buffers {
            let data = match self.read_resource(context, device, buffer, deferred, reads)? {
                ResourceJob::Buffer(data) => data,
                ResourceJob::Texture(..) => return Err("a vertex buffer is a texture".to_owned()),
            };
            vertex_buffers.push((*slot, data, *stride, *offset));
        }
        let index_buffer = match &plan.index_buffer {
            Some((buffer, format, offset)) => match self.read_resource(context, device, buffer, deferred, reads)? {
                ResourceJob::Buffer(data) => Some((data, *format, *offset)),
                ResourceJob::Texture(..) => return Err("the index buffer is a texture".to_owned()),
            },
            None => None,
        };
        let vs = self.gather_stage(context, device, &plan.vs, deferred, reads)?;
        let hs = match &plan.hs {
            Some(stage) => Some(self.gather_stage(context, device, stage, deferred, reads)?),
            None => None,
        };
        let ds = match &plan.ds {
            Some(stage) => Some(self.gather_stage(context, device, stage, deferred, reads)?),
            None => None,
        };
        let gs = match &plan.gs {
            Some(stage) => Some(self.gather_stage(context, device, stage, deferred, reads)?),
            None => None,
        };
        let ps = self.gather_stage(context, device, &plan.ps, deferred, reads)?;
        let uavs = self.gather_uavs(context, device, &plan.uavs, deferred, reads)?;
        let arguments = match &plan.arguments {
            Some(arguments) => Some(self.read_argument_words(context, device, arguments, reads)?),
            None => None,
        };
        let stream_output = match &plan.stream_output {
            Some(so) => {
                let mut targets = Vec::with_capacity(so.targets.len());
                for target in &so.targets {
                    let before = match self.read_resource(context, device, &target.resource, deferred, reads)? {
                        ResourceJob::Buffer(data) => data,
                        ResourceJob::Texture(..) => return Err("a stream-output buffer is a texture".to_owned()),
                    };
                    targets.push((target.slot, before.clone(), target.offset, before));
                }
                Some(StreamOutputJob {
                    state: so.state.clone(),
                    targets,
                })
            }
            None => None,
        };
        let mut befores = Vec::new();
        let mut targets = Vec::new();
        for target in &plan.targets {
            let key = (target.resource.as_raw() as usize, target.subresource);
            let cached = (!deferred)
                .then(|| self.surfaces.get(&key))
                .flatten()
                .filter(|c| c.generation == self.generation(key.0) && c.epoch == self.epoch)
                .map(|c| DataRef::Ready(c.data.clone()));
            let before = match cached {
                Some(before) => before,
                None => self.read_surface(context, device, target, None, reads)?,
            };
            befores.push(before.clone());
            targets.push(TargetJob {
                view: target.view,
                shape: target.shape,
                before: before.clone(),
                after: before,
            });
        }
        let job = DrawJob {
            call: plan.call,
            indirect: plan.indirect,
            arguments,
            auto: plan.auto,
            stream_output,
            name: None,
            topology: plan.topology,
            input_layout: plan.input_layout.clone(),
            vertex_buffers,
            index_buffer,
            vs,
            hs,
            ds,
            gs,
            ps,
            rasterizer: plan.rasterizer,
            depth_stencil: plan.depth_stencil,
            stencil_ref: plan.stencil_ref,
            blend: plan.blend,
            blend_factor: plan.blend_factor,
            sample_mask: plan.sample_mask,
            viewports: plan.viewports.clone(),
            scissor_rects: plan.scissor_rects.clone(),
            targets,
            uavs,
        };
        Ok((job, befores))
    }

    /// One stage's reads.
    fn gather_stage(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        stage: &StagePlan,
        deferred: bool,
        reads: &mut Vec<Read>,
    ) -> Result<StageJob<DataRef>> {
        let mut constant_buffers = Vec::new();
        for (slot, buffer, first, count) in &stage.constant_buffers {
            match self.read_resource(context, device, buffer, deferred, reads)? {
                ResourceJob::Buffer(data) => constant_buffers.push((*slot, data, *first, *count)),
                ResourceJob::Texture(..) => return Err("a constant buffer is a texture".to_owned()),
            }
        }
        let mut shader_resources = Vec::new();
        for (slot, view, resource) in &stage.shader_resources {
            let data = match describe(resource)? {
                Described::Texture { shape, .. } if shape.sample_count > 1 => {
                    self.read_multisampled_resource(context, device, resource, &shape, view, reads)?
                }
                _ => self.read_resource(context, device, resource, deferred, reads)?,
            };
            shader_resources.push((*slot, *view, data));
        }
        Ok(StageJob {
            dxbc: stage.dxbc.clone(),
            constant_buffers,
            shader_resources,
            samplers: stage.samplers.clone(),
        })
    }

    /// Sets where the draw's first vertex goes in each stream-output buffer of `so` (14.4): the offset
    /// `SOSetTargets` gave when this is the binding's first draw in the capture; for an offset of -1
    /// (`D3D11_SO_APPEND`) and a binding already streamed through, the buffer's filled size, which the recorder
    /// knows when a draw it recorded streamed to the buffer last. A binding made before the capture may have been
    /// streamed through unseen: its first draw is not recorded unless the filled size is known.
    fn stream_offsets(&mut self, context: &ID3D11DeviceContext, so: &mut StreamOutputPlan) -> Result<()> {
        let bindings = crate::stream_out::bindings(context.as_raw() as usize);
        for target in &mut so.targets {
            let key = target.resource.as_raw() as usize;
            let binding = bindings.get(target.slot as usize).copied().unwrap_or_default();
            let fresh = binding.buffer == key
                && binding.offset != crate::stream_out::APPEND
                && binding.sequence > self.stream_out_start;
            let offset = if fresh {
                binding.offset
            } else if let Some((filled, _)) = self.filled.get(&key) {
                *filled
            } else {
                return Err(format!(
                    "stream-output slot {}: the draw appends to the buffer, whose filled size the recorder does not \
                     know (no draw it recorded streamed to it; it was bound before the capture, or streamed to by a \
                     draw that was not recorded)",
                    target.slot
                ));
            };
            if offset > target.bytes {
                return Err(format!(
                    "stream-output slot {}: offset {offset} is past the end of the {}-byte buffer",
                    target.slot, target.bytes
                ));
            }
            target.offset = offset;
        }
        Ok(())
    }

    /// The reads after a draw of its stream-output buffers: each buffer, marked written first.
    fn read_stream_afters(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        plan: &DrawPlan,
        job: &mut DrawJob<DataRef>,
        reads: &mut Vec<Read>,
    ) -> Result<()> {
        let (Some(so), Some(so_job)) = (&plan.stream_output, &mut job.stream_output) else {
            return Ok(());
        };
        for (target, (_, _, _, after)) in so.targets.iter().zip(so_job.targets.iter_mut()) {
            self.bump(target.resource.as_raw() as usize);
            *after = match self.read_resource(context, device, &target.resource, false, reads)? {
                ResourceJob::Buffer(data) => data,
                ResourceJob::Texture(..) => return Err("a stream-output buffer is a texture".to_owned()),
            };
        }
        Ok(())
    }

    /// After a draw streamed through the bindings of `context` (the draw has run, recorded or not): each buffer's
    /// filled size from its stream's query (see [`ActiveCapture::filled`]), or forgotten when the query gives
    /// nothing; later draws through the bindings append (14.4).
    fn streamed(&mut self, context: &ID3D11DeviceContext, so: &StreamOutputPlan, streams: &[(u32, ID3D11Query)]) {
        crate::stream_out::streamed(context.as_raw() as usize);
        for target in &so.targets {
            let key = target.resource.as_raw() as usize;
            let stride = so.state.strides.get(target.slot as usize).copied().unwrap_or(0);
            let stream = so
                .state
                .declaration
                .iter()
                .find(|entry| entry.output_slot == target.slot)
                .map(|entry| entry.stream);
            let written = match stream {
                // no entry writes the slot: nothing is written, the filled size is where the draw started
                None => Some(0u64),
                Some(stream) => streams
                    .iter()
                    .find(|(s, _)| *s == stream)
                    .and_then(|(_, query)| query_primitives(context, query))
                    .map(|primitives| {
                        primitives
                            .saturating_mul(u64::from(so.vertices_per_primitive))
                            .saturating_mul(u64::from(stride))
                    }),
            };
            match written {
                Some(bytes) => {
                    let filled = u64::from(target.offset)
                        .saturating_add(bytes)
                        .min(u64::from(target.bytes)) as u32;
                    self.filled.insert(key, (filled, target.resource.clone()));
                }
                None => {
                    log!(
                        "stream-output slot {}: the statistics query gave nothing; the buffer's filled size is unknown",
                        target.slot
                    );
                    self.filled.remove(&key);
                }
            }
        }
    }

    /// After a draw that was not recorded: the buffers bound for stream output on `context`, if any, may have been
    /// streamed to, by an amount the recorder did not count; their filled sizes are forgotten.
    fn forget_streams(&mut self, context: &ID3D11DeviceContext) {
        let mut bound: [Option<ID3D11Buffer>; 4] = Default::default();
        // SAFETY: a live context; the array has room for the 4 targets asked for.
        unsafe { context.SOGetTargets(Some(&mut bound)) };
        if bound.iter().any(Option::is_some) {
            crate::stream_out::streamed(context.as_raw() as usize);
            for buffer in bound.iter().flatten() {
                self.filled.remove(&(buffer.as_raw() as usize));
            }
        }
    }

    /// The reads before a draw or dispatch of its unordered access views: each view's whole resource (as any bound
    /// resource, from the cache when unchanged) and, for an append or counter view, its hidden counter (5.3.9).
    fn gather_uavs(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        uavs: &[UavPlan],
        deferred: bool,
        reads: &mut Vec<Read>,
    ) -> Result<Vec<UavJob<DataRef>>> {
        let mut jobs = Vec::with_capacity(uavs.len());
        for uav in uavs {
            let before = self.read_resource(context, device, &uav.resource, deferred, reads)?;
            let counter_before = if uav.view.append || uav.view.counter {
                Some(self.read_counter(device, context, &uav.handle, reads)?)
            } else {
                None
            };
            jobs.push(UavJob {
                slot: uav.slot,
                view: uav.view,
                before,
                // replaced by the read after the call
                after: ResourceJob::Buffer(DataRef::Ready(Arc::new(Vec::new()))),
                counter_before,
                counter_after: None,
            });
        }
        Ok(jobs)
    }

    /// The reads after a draw or dispatch of its unordered access views: each view's resource, marked written
    /// first (so the read is new, and cached as the resource's latest contents), and its counter.
    fn read_uav_afters(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        uavs: &[UavPlan],
        jobs: &mut [UavJob<DataRef>],
        deferred: bool,
        reads: &mut Vec<Read>,
    ) -> Result<()> {
        for (uav, job) in uavs.iter().zip(jobs.iter_mut()) {
            self.bump(uav.resource.as_raw() as usize);
            job.after = self.read_resource(context, device, &uav.resource, deferred, reads)?;
            if job.counter_before.is_some() {
                job.counter_after = Some(self.read_counter(device, context, &uav.handle, reads)?);
            }
        }
        Ok(())
    }

    /// Issues the read of an append or counter view's hidden counter: `CopyStructureCount` into a 4-byte staging
    /// buffer (the one way D3D11 gives a counter out, 5.3.9).
    fn read_counter(
        &mut self,
        device: &ID3D11Device,
        context: &ID3D11DeviceContext,
        view: &ID3D11UnorderedAccessView,
        reads: &mut Vec<Read>,
    ) -> Result<DataRef> {
        let staging = self
            .pool
            .acquire(device, StagingDesc::whole(&Described::Buffer { bytes: 4 }))?;
        let buffer = match staging.resource.cast::<ID3D11Buffer>() {
            Ok(buffer) => buffer,
            Err(e) => {
                self.pool.release(staging);
                return Err(format!("a staging buffer is not a buffer: {e}"));
            }
        };
        // SAFETY: both are live; the staging buffer holds the 4 bytes written at offset 0, and the view is an
        // append or counter view (the only kind `CopyStructureCount` takes).
        unsafe { context.CopyStructureCount(&buffer, 0, view) };
        reads.push(Read {
            staging,
            kind: ReadKind::Buffer { bytes: 4 },
            cache: None,
            convert: Conversion::None,
        });
        Ok(DataRef::Read(reads.len() - 1, 0))
    }

    /// Issues the read of an indirect draw's argument words (a staging copy of just those bytes, on the draw's
    /// context, mapped with the draw's other reads).
    fn read_argument_words(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        arguments: &ArgumentsPlan,
        reads: &mut Vec<Read>,
    ) -> Result<DataRef> {
        let bytes = arguments.words * 4;
        let staging = self
            .pool
            .acquire(device, StagingDesc::whole(&Described::Buffer { bytes }))?;
        let source_box = D3D11_BOX {
            left: arguments.offset,
            top: 0,
            front: 0,
            right: arguments.offset + bytes,
            bottom: 1,
            back: 1,
        };
        // SAFETY: both resources are live buffers; the box lies within the argument buffer (checked when planned)
        // and is the staging buffer's size.
        unsafe {
            context.CopySubresourceRegion(&staging.resource, 0, 0, 0, 0, &arguments.buffer, 0, Some(&source_box))
        };
        reads.push(Read {
            staging,
            kind: ReadKind::Buffer { bytes: bytes as usize },
            cache: None,
            convert: Conversion::None,
        });
        Ok(DataRef::Read(reads.len() - 1, 0))
    }

    /// Reads `words` u32 arguments of an indirect call from `args` (a raw `ID3D11Buffer`) at byte `offset`: a
    /// staging copy of just those bytes, mapped at once (the call's arguments decide what is recorded). D3D11
    /// requires the offset 4-byte aligned and the arguments within the buffer (8.7, 8.8's `Draw*Indirect`, 18.6.5's
    /// `DispatchIndirect`); anything else is not recorded.
    fn read_arguments(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        args: *mut c_void,
        offset: u32,
        words: u32,
    ) -> Result<Vec<u32>> {
        // SAFETY: the live buffer the program passed; borrowing adds no reference.
        let buffer = unsafe { ID3D11Buffer::from_raw_borrowed(&args) }.ok_or("a null argument buffer")?;
        let resource: ID3D11Resource = buffer.cast().map_err(|e| e.to_string())?;
        let Described::Buffer { bytes: size } = describe(&resource)? else {
            return Err("the argument buffer is not a buffer".to_owned());
        };
        let bytes = words * 4;
        let end = offset.checked_add(bytes).filter(|end| *end <= size);
        let Some(end) = end.filter(|_| offset.is_multiple_of(4)) else {
            return Err(format!(
                "arguments at byte {offset} of a {size}-byte buffer: not 4-byte aligned or past its end"
            ));
        };
        let staging = self
            .pool
            .acquire(device, StagingDesc::whole(&Described::Buffer { bytes }))?;
        let source_box = D3D11_BOX {
            left: offset,
            top: 0,
            front: 0,
            right: end,
            bottom: 1,
            back: 1,
        };
        let suspended = Predication::suspend(context);
        // SAFETY: both resources are live buffers; the box lies within the argument buffer and is the staging
        // buffer's size.
        unsafe { context.CopySubresourceRegion(&staging.resource, 0, 0, 0, 0, &resource, 0, Some(&source_box)) };
        suspended.restore(context);
        let mapped = map_rows(context, &staging.resource, 0, bytes as usize, 1, 1);
        self.pool.release(staging);
        Ok(mapped?
            .chunks_exact(4)
            .map(|word| u32::from_le_bytes([word[0], word[1], word[2], word[3]]))
            .collect())
    }

    /// The reads after the draw: each target's surface, within the region the draw can write.
    fn read_afters(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        plan: &DrawPlan,
        befores: &[DataRef],
        deferred: bool,
        reads: &mut Vec<Read>,
    ) -> Result<Vec<DataRef>> {
        let mut afters = Vec::new();
        for (target, before) in plan.targets.iter().zip(befores) {
            let key = target.resource.as_raw() as usize;
            let cache = if deferred {
                None
            } else {
                self.bump(key);
                Some(CacheNote::Surface {
                    key: (key, target.subresource),
                    generation: self.generation(key),
                    epoch: self.epoch,
                    keep: target.resource.clone(),
                })
            };
            let [width, height, _] = target.shape.mip_size(target.surface.level);
            let region = match target.view {
                // D3D11 copies depth-stencil resources whole only; multisampled targets are read whole.
                TargetView::DepthStencil(_) => None,
                TargetView::RenderTarget(..) if target.shape.sample_count > 1 => None,
                TargetView::RenderTarget(..) => plan.write_region(width, height),
            };
            let after = match region {
                Some(region) if region.left >= region.right || region.top >= region.bottom => {
                    // Nothing can be drawn: the surface after is the surface before.
                    match before {
                        DataRef::Ready(bytes) => {
                            if let Some(CacheNote::Surface {
                                key,
                                generation,
                                epoch,
                                keep,
                            }) = cache
                            {
                                self.surfaces.insert(
                                    key,
                                    CachedSurface {
                                        generation,
                                        epoch,
                                        data: bytes.clone(),
                                        _keep: keep,
                                    },
                                );
                            }
                            before.clone()
                        }
                        DataRef::Read(..) => self.read_surface(context, device, target, cache, reads)?,
                    }
                }
                Some(region) if region.right - region.left < width || region.bottom - region.top < height => {
                    self.read_region(context, device, target, region, before.clone(), cache, reads)?
                }
                _ => self.read_surface(context, device, target, cache, reads)?,
            };
            afters.push(after);
        }
        Ok(afters)
    }

    /// Issues a staging copy of `region` of a target's surface, to be laid over `base`.
    #[allow(clippy::too_many_arguments)] // one read's every input
    fn read_region(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        target: &TargetPlan,
        region: Region,
        base: DataRef,
        cache: Option<CacheNote>,
        reads: &mut Vec<Read>,
    ) -> Result<DataRef> {
        let surface_desc = StagingDesc::surface(&target.shape, target.format, target.surface.level);
        let surface = surface_desc.shape(target.shape.format);
        let region_shape = TextureShape {
            width: region.right - region.left,
            height: region.bottom - region.top,
            ..surface
        };
        let convert = self.conversion(device, target.format)?;
        let desc = StagingDesc::surface(&region_shape, target.format, 0);
        let staging = self.pool.acquire(device, desc)?;
        let is_3d = target.shape.dimension == iridia::api::enums::ResourceDimension::Texture3D;
        let source_box = D3D11_BOX {
            left: region.left,
            top: region.top,
            front: if is_3d { target.surface.slice } else { 0 },
            right: region.right,
            bottom: region.bottom,
            back: if is_3d { target.surface.slice + 1 } else { 1 },
        };
        // SAFETY: both resources are live; the box lies within the subresource and the staging texture is the
        // box's size in the resource's format.
        unsafe {
            context.CopySubresourceRegion(
                &staging.resource,
                0,
                0,
                0,
                0,
                &target.resource,
                target.subresource,
                Some(&source_box),
            )
        };
        reads.push(Read {
            staging,
            kind: ReadKind::Region {
                surface,
                region,
                region_shape,
                base,
            },
            cache,
            convert,
        });
        Ok(DataRef::Read(reads.len() - 1, 0))
    }
}

/// Maps one read's staging resource and gives its subresources' bytes.
fn resolve_read(context: &ID3D11DeviceContext, read: &Read, earlier: &[Vec<Bytes>]) -> Result<Vec<Bytes>> {
    let layout = |shape: &TextureShape, level: u32| {
        shape
            .mip_layout(level)
            .map_err(|e| e.to_string())
            .map(|l| (l.row_bytes as usize, l.rows as usize, l.slices as usize))
    };
    match &read.kind {
        ReadKind::Buffer { bytes } => Ok(vec![Arc::new(map_rows(
            context,
            &read.staging.resource,
            0,
            *bytes,
            1,
            1,
        )?)]),
        ReadKind::Texture { shape } => {
            let mut out = Vec::new();
            for slice in 0..shape.array_size {
                for level in 0..shape.mip_levels {
                    let (row_bytes, rows, slices) = layout(shape, level)?;
                    let index = level + slice * shape.mip_levels;
                    let mut bytes = map_rows(context, &read.staging.resource, index, row_bytes, rows, slices)?;
                    read.convert.apply(&mut bytes);
                    out.push(Arc::new(bytes));
                }
            }
            Ok(out)
        }
        ReadKind::Surface { shape } => {
            let (row_bytes, rows, _) = layout(shape, 0)?;
            let mut bytes = map_rows(context, &read.staging.resource, 0, row_bytes, rows, 1)?;
            read.convert.apply(&mut bytes);
            Ok(vec![Arc::new(bytes)])
        }
        ReadKind::Region {
            surface,
            region,
            region_shape,
            base,
        } => {
            let (row_bytes, rows, _) = layout(region_shape, 0)?;
            let mut region_rows = map_rows(context, &read.staging.resource, 0, row_bytes, rows, 1)?;
            read.convert.apply(&mut region_rows);
            let base = match base {
                DataRef::Ready(bytes) => bytes.clone(),
                DataRef::Read(index, sub) => earlier
                    .get(*index)
                    .and_then(|r| r.get(*sub))
                    .cloned()
                    .ok_or("the surface before the draw was not read")?,
            };
            let (surface_row_bytes, _, _) = layout(surface, 0)?;
            let texel_bytes = row_bytes / region_shape.width.max(1) as usize;
            Ok(vec![Arc::new(splice_region(
                &base,
                &region_rows,
                *region,
                surface_row_bytes,
                texel_bytes,
            )?)])
        }
    }
}

/// A bound target, as the draw sees it.
struct TargetPlan {
    view: TargetView,
    /// The view's DXGI format.
    view_format: DXGI_FORMAT,
    resource: ID3D11Resource,
    shape: TextureShape,
    format: DXGI_FORMAT,
    subresource: u32,
    surface: Surface,
}

/// A stage's bindings, as queried.
struct StagePlan {
    dxbc: Option<Bytes>,
    constant_buffers: Vec<(u32, ID3D11Resource, u32, u32)>,
    shader_resources: Vec<(u32, iridia::api::resource::ShaderResourceViewDesc, ID3D11Resource)>,
    samplers: Vec<(u32, iridia::api::resource::SamplerDesc)>,
}

/// Everything a draw's `*Get*` calls gave.
struct DrawPlan {
    call: DrawCall,
    /// Set for an indirect draw (`call` is what its arguments made).
    indirect: Option<Indirect>,
    /// Whether the call was `DrawAuto` (`call` is the `Draw` it amounted to).
    auto: bool,
    /// An indirect draw's arguments, to read with the draw (on a deferred context, where they are only there when
    /// the command list runs); `call` then stands for the call they make until they are read.
    arguments: Option<ArgumentsPlan>,
    /// Stream output, when the program before the rasterizer was made with a declaration.
    stream_output: Option<StreamOutputPlan>,
    topology: iridia::api::enums::PrimitiveTopology,
    input_layout: Vec<iridia::api::fixed_function::InputElementDesc>,
    vertex_buffers: Vec<(u32, ID3D11Resource, u32, u32)>,
    index_buffer: Option<(ID3D11Resource, IndexFormat, u32)>,
    vs: StagePlan,
    /// The hull stage, when a program is bound (then a domain program is too).
    hs: Option<StagePlan>,
    /// The domain stage, when a program is bound (then a hull program is too).
    ds: Option<StagePlan>,
    /// The geometry stage, when a program is bound (one without stream output).
    gs: Option<StagePlan>,
    ps: StagePlan,
    rasterizer: iridia::api::fixed_function::RasterizerDesc,
    depth_stencil: iridia::api::fixed_function::DepthStencilDesc,
    stencil_ref: u32,
    blend: iridia::api::fixed_function::BlendDesc,
    blend_factor: [f32; 4],
    sample_mask: u32,
    viewports: Vec<iridia::api::viewport::Viewport>,
    scissor_rects: Vec<iridia::api::viewport::Scissor>,
    targets: Vec<TargetPlan>,
    /// The unordered access views bound with the render targets.
    uavs: Vec<UavPlan>,
}

/// Where an indirect draw's arguments are: `words` u32 at byte `offset` of `buffer` (checked to lie within it).
struct ArgumentsPlan {
    buffer: ID3D11Resource,
    offset: u32,
    words: u32,
}

/// Where `words` u32 arguments at byte `offset` of `args` (a raw `ID3D11Buffer`) are, checked as D3D11 requires
/// (8.7, 8.8, 18.6.5: the offset 4-byte aligned, the arguments within the buffer).
fn argument_plan(args: *mut c_void, offset: u32, words: u32) -> Result<ArgumentsPlan> {
    // SAFETY: the live buffer the program passed; borrowing adds no reference.
    let buffer = unsafe { ID3D11Buffer::from_raw_borrowed(&args) }.ok_or("a null argument buffer")?;
    let buffer: ID3D11Resource = buffer.cast().map_err(|e| e.to_string())?;
    let Described::Buffer { bytes: size } = describe(&buffer)? else {
        return Err("the argument buffer is not a buffer".to_owned());
    };
    let fits = offset.is_multiple_of(4) && offset.checked_add(words * 4).is_some_and(|end| end <= size);
    if !fits {
        return Err(format!(
            "arguments at byte {offset} of a {size}-byte buffer: not 4-byte aligned or past its end"
        ));
    }
    Ok(ArgumentsPlan { buffer, offset, words })
}

/// The call an indirect draw's argument words make (8.7: `VertexCountPerInstance, InstanceCount,
/// StartVertexLocation, StartInstanceLocation`; 8.8: `IndexCountPerInstance, InstanceCount, StartIndexLocation,
/// BaseVertexLocation, StartInstanceLocation`), of the kind `like` is.
fn call_from_arguments(like: DrawCall, words: &[u32]) -> Result<DrawCall> {
    let word = |i: usize| words.get(i).copied().ok_or("the arguments were not read whole");
    Ok(if like.is_indexed() {
        DrawCall::DrawIndexedInstanced {
            index_count_per_instance: word(0)?,
            instance_count: word(1)?,
            start_index: word(2)?,
            base_vertex: word(3)? as i32,
            start_instance: word(4)?,
        }
    } else {
        DrawCall::DrawInstanced {
            vertex_count_per_instance: word(0)?,
            instance_count: word(1)?,
            start_vertex: word(2)?,
            start_instance: word(3)?,
        }
    })
}

/// A draw's stream output, as queried: the declaration its program was made with and the bound buffers.
struct StreamOutputPlan {
    /// The declaration, strides and rasterized stream (`targets` empty).
    state: iridia::capture::manifest::StreamOutputStateEntry,
    /// Vertices each streamed primitive writes: 1 for points, 2 for lines, 3 for triangles (14.1: strips are
    /// streamed as lists).
    vertices_per_primitive: u32,
    targets: Vec<StreamOutputTargetPlan>,
}

/// A buffer bound for stream output.
struct StreamOutputTargetPlan {
    slot: u32,
    resource: ID3D11Resource,
    /// Its size.
    bytes: u32,
    /// Where the draw's first vertex goes (set by `ActiveCapture::stream_offsets`).
    offset: u32,
}

/// The statistics queries of a stream-output draw, one per stream a bound buffer is written from
/// (`D3D11_QUERY_SO_STATISTICS_STREAM0` + stream, 14.4).
fn stream_queries(device: &ID3D11Device, so: &StreamOutputPlan) -> Result<Vec<(u32, ID3D11Query)>> {
    let mut queries: Vec<(u32, ID3D11Query)> = Vec::new();
    for target in &so.targets {
        let Some(entry) = so.state.declaration.iter().find(|e| e.output_slot == target.slot) else {
            continue;
        };
        if queries.iter().any(|(stream, _)| *stream == entry.stream) {
            continue;
        }
        let desc = D3D11_QUERY_DESC {
            Query: D3D11_QUERY(D3D11_QUERY_SO_STATISTICS_STREAM0.0 + 2 * entry.stream as i32),
            MiscFlags: 0,
        };
        let mut query = None;
        // SAFETY: a live device; `desc` and the out-parameter are locals.
        unsafe { device.CreateQuery(&desc, Some(&mut query)) }
            .map_err(|e| format!("cannot make a stream-output statistics query: {e}"))?;
        queries.push((entry.stream, query.ok_or("CreateQuery gave no query")?));
    }
    Ok(queries)
}

/// `NumPrimitivesWritten` of an ended stream-output statistics query, waiting for it at most a second (the draw's
/// reads were mapped already, so the GPU is done with the draw); `None` when it does not come (under Wine, a query of
/// the program's own of the same kind around the draw leaves the recorder's without a result).
fn query_primitives(context: &ID3D11DeviceContext, query: &ID3D11Query) -> Option<u64> {
    let mut data = D3D11_QUERY_DATA_SO_STATISTICS::default();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
    while std::time::Instant::now() < deadline {
        // SAFETY: a live context and ended query; `data` is writable for its size. The raw call gives S_FALSE
        // (not ready) apart from S_OK.
        let result = unsafe {
            (Interface::vtable(context).GetData)(
                context.as_raw(),
                query.as_raw(),
                (&mut data as *mut D3D11_QUERY_DATA_SO_STATISTICS).cast(),
                std::mem::size_of::<D3D11_QUERY_DATA_SO_STATISTICS>() as u32,
                0,
            )
        };
        if result == windows::Win32::Foundation::S_OK {
            return Some(data.NumPrimitivesWritten);
        }
        if result.is_err() {
            return None;
        }
        std::thread::yield_now();
    }
    None
}

/// Vertices each primitive streams (14.1: strips stream as lists): the geometry program's output topology, or,
/// when the stream-output object was made from a vertex or domain program (no geometry program runs), the input
/// assembler's primitive.
fn vertices_per_primitive(
    dxbc: &[u8],
    topology: iridia::api::enums::PrimitiveTopology,
) -> Result<(u32, iridia::dxbc::program::ProgramKind)> {
    use iridia::api::enums::PrimitiveTopology as T;
    use iridia::dxbc::program::ProgramKind;
    let shader = iridia::dxbc::shader::Shader::parse(dxbc, iridia::dxbc::container::Verify::Skip)
        .map_err(|e| format!("the stream-output program does not parse: {e}"))?;
    let kind = shader.program.kind;
    let vertices = if kind == ProgramKind::Geometry {
        let exe = iridia::shader::Executable::new(&shader.program).map_err(|e| e.to_string())?;
        match exe.geometry().map(|g| g.output_topology) {
            Some(1) => 1,
            Some(3) => 2,
            Some(5) => 3,
            other => return Err(format!("a geometry program of output topology {other:?}")),
        }
    } else {
        match topology {
            T::PointList => 1,
            T::LineList | T::LineStrip | T::LineListAdj | T::LineStripAdj => 2,
            T::TriangleList | T::TriangleStrip | T::TriangleListAdj | T::TriangleStripAdj => 3,
            other => {
                return Err(format!(
                    "stream output without a geometry program from {other} primitives"
                ));
            }
        }
    };
    Ok((vertices, kind))
}

/// A bound unordered access view, as queried.
struct UavPlan {
    slot: u32,
    view: iridia::api::resource::UnorderedAccessViewDesc,
    handle: ID3D11UnorderedAccessView,
    resource: ID3D11Resource,
}

/// The views in `views` (by slot), described: each view's description (a structured view with its buffer's
/// structure stride) and resource.
fn uav_plans(views: &[Option<ID3D11UnorderedAccessView>]) -> Result<Vec<UavPlan>> {
    let mut plans = Vec::new();
    for (slot, view) in views.iter().enumerate() {
        let Some(view) = view else { continue };
        let mut desc = D3D11_UNORDERED_ACCESS_VIEW_DESC::default();
        // SAFETY: a live view; `desc` is writable.
        unsafe { view.GetDesc(&mut desc) };
        // SAFETY: a live view; the resource is AddRef'd and released on drop.
        let resource = unsafe { view.GetResource() }.map_err(|e| e.to_string())?;
        let stride = match resource.cast::<ID3D11Buffer>() {
            Ok(buffer) => {
                let mut buffer_desc = D3D11_BUFFER_DESC::default();
                // SAFETY: a live buffer; `buffer_desc` is writable.
                unsafe { buffer.GetDesc(&mut buffer_desc) };
                buffer_desc.StructureByteStride
            }
            Err(_) => 0,
        };
        plans.push(UavPlan {
            slot: slot as u32,
            view: crate::convert::unordered_access_view(&desc, stride)?,
            handle: view.clone(),
            resource,
        });
    }
    Ok(plans)
}

impl DrawPlan {
    /// The texels of a `width` x `height` surface the draw can write: within the first viewport's bounds (the
    /// only one a draw without a geometry program uses, 15.6, tessellated or not: a domain program cannot pick a
    /// viewport) and, when enabled, the first scissor rectangle
    /// (15.7); `None` when there is no viewport or a geometry program may pick another viewport
    /// (`SV_ViewportArrayIndex`, 15.6) (then the whole surface is read).
    fn write_region(&self, width: u32, height: u32) -> Option<Region> {
        if self.gs.is_some() {
            return None;
        }
        let viewport = self.viewports.first()?;
        let span = |start: f32, size: f32, limit: u32| -> Option<(u32, u32)> {
            if !(start.is_finite() && size.is_finite()) {
                return None;
            }
            let low = start.floor().max(0.0).min(limit as f32) as u32;
            let high = (start + size).ceil().max(0.0).min(limit as f32) as u32;
            Some((low, high.max(low)))
        };
        let (mut left, mut right) = span(viewport.x, viewport.width, width)?;
        let (mut top, mut bottom) = span(viewport.y, viewport.height, height)?;
        if self.rasterizer.scissor_enable {
            let clamp = |v: i32, limit: u32| v.clamp(0, limit as i32) as u32;
            match self.scissor_rects.first() {
                Some(s) => {
                    left = left.max(clamp(s.left, width));
                    top = top.max(clamp(s.top, height));
                    right = right.min(clamp(s.right, width));
                    bottom = bottom.min(clamp(s.bottom, height));
                }
                // Scissoring with no rectangle set draws nothing.
                None => {
                    return Some(Region {
                        left: 0,
                        top: 0,
                        right: 0,
                        bottom: 0,
                    });
                }
            }
        }
        Some(Region {
            left,
            top,
            right: right.max(left),
            bottom: bottom.max(top),
        })
    }
}

/// A device child's DXBC, kept at its creation.
fn shader_dxbc(shader: &ID3D11DeviceChild, stage: &str) -> Result<Bytes> {
    private_data(shader, &DXBC_KEY)
        .map(Arc::new)
        .ok_or_else(|| format!("the {stage} was created before the recorder saw its device: its DXBC is unknown"))
}

/// Queries one shader stage's bindings (`$get_shader`, `$get_cb`, `$get_cb1`, `$get_srv`, `$get_sampler` are that
/// stage's `*Get*` methods).
macro_rules! query_stage {
    ($context:expr, $context1:expr, $name:literal, $get_shader:ident, $get_cb:ident, $get_cb1:ident, $get_srv:ident, $get_sampler:ident) => {{
        let context = $context;
        let mut shader = None;
        // SAFETY: a live context; the out-parameter is a local (class instances are not asked for).
        unsafe { context.$get_shader(&mut shader, None, None) };
        let dxbc = match &shader {
            Some(shader) => Some(shader_dxbc(
                &shader.cast::<ID3D11DeviceChild>().map_err(|e| e.to_string())?,
                $name,
            )?),
            None => None,
        };
        let mut buffers: [Option<ID3D11Buffer>; 14] = Default::default();
        let mut firsts = [0u32; 14];
        let mut counts = [u32::MAX; 14];
        match $context1 {
            // SAFETY: a live context; each array has room for the 14 slots asked for.
            Some(context1) => unsafe {
                context1.$get_cb1(
                    0,
                    14,
                    Some(buffers.as_mut_ptr()),
                    Some(firsts.as_mut_ptr()),
                    Some(counts.as_mut_ptr()),
                )
            },
            // SAFETY: as above.
            None => unsafe { context.$get_cb(0, Some(&mut buffers)) },
        }
        let mut constant_buffers = Vec::new();
        for (slot, buffer) in buffers.iter().enumerate() {
            let Some(buffer) = buffer else { continue };
            let mut desc = D3D11_BUFFER_DESC::default();
            // SAFETY: a live buffer; `desc` is writable.
            unsafe { buffer.GetDesc(&mut desc) };
            let constants = desc.ByteWidth / 16;
            let first = firsts[slot].min(constants);
            // The window the shader sees, cut where the buffer ends (it reads nothing past it).
            let count = counts[slot].min(CONSTANT_BUFFER_CONSTANTS).min(constants - first);
            constant_buffers.push((
                slot as u32,
                buffer.cast::<ID3D11Resource>().map_err(|e| e.to_string())?,
                first,
                count,
            ));
        }
        let mut views: [Option<ID3D11ShaderResourceView>; 128] = std::array::from_fn(|_| None);
        // SAFETY: a live context; the array has room for the 128 slots asked for.
        unsafe { context.$get_srv(0, Some(&mut views)) };
        let mut shader_resources = Vec::new();
        for (slot, view) in views.iter().enumerate() {
            let Some(view) = view else { continue };
            let mut desc = D3D11_SHADER_RESOURCE_VIEW_DESC::default();
            // SAFETY: a live view; `desc` is writable.
            unsafe { view.GetDesc(&mut desc) };
            let desc = crate::convert::shader_resource_view(&desc)?;
            // SAFETY: a live view; the resource is AddRef'd and released on drop.
            let resource = unsafe { view.GetResource() }.map_err(|e| e.to_string())?;
            shader_resources.push((slot as u32, desc, resource));
        }
        let mut states: [Option<ID3D11SamplerState>; 16] = Default::default();
        // SAFETY: a live context; the array has room for the 16 slots asked for.
        unsafe { context.$get_sampler(0, Some(&mut states)) };
        let mut samplers = Vec::new();
        for (slot, state) in states.iter().enumerate() {
            let Some(state) = state else { continue };
            let mut desc = D3D11_SAMPLER_DESC::default();
            // SAFETY: a live sampler; `desc` is writable.
            unsafe { state.GetDesc(&mut desc) };
            samplers.push((slot as u32, crate::convert::sampler(&desc)?));
        }
        StagePlan {
            dxbc,
            constant_buffers,
            shader_resources,
            samplers,
        }
    }};
}

/// Queries everything the draw depends on through the context's `*Get*` calls.
fn query(
    context: &ID3D11DeviceContext,
    device: &ID3D11Device,
    call: DrawCall,
    indirect: Option<Indirect>,
    auto: bool,
) -> Result<DrawPlan> {
    // Stages and outputs the recorder does not record yet.
    let mut geometry = None;
    let mut hull = None;
    let mut domain = None;
    // SAFETY: (these three) a live context; the out-parameters are locals.
    unsafe {
        context.GSGetShader(&mut geometry, None, None);
        context.HSGetShader(&mut hull, None, None);
        context.DSGetShader(&mut domain, None, None);
    }
    match (&hull, &domain) {
        (Some(_), None) => {
            return Err(
                "a hull program is bound without a domain program (the tessellator's output goes nowhere)".into(),
            );
        }
        (None, Some(_)) => {
            return Err("a domain program is bound without a hull program (nothing feeds the tessellator)".into());
        }
        _ => {}
    }
    let mut declared = None;
    if let Some(geometry) = &geometry {
        let child = geometry.cast::<ID3D11DeviceChild>().map_err(|e| e.to_string())?;
        if let Some(json) = private_data(&child, &STREAM_OUTPUT_KEY) {
            let state: iridia::capture::manifest::StreamOutputStateEntry =
                serde_json::from_slice(&json).map_err(|e| format!("the stream-output declaration kept: {e}"))?;
            declared = Some((state, shader_dxbc(&child, "geometry shader")?));
        }
    }
    let mut views: [Option<ID3D11UnorderedAccessView>; 64] = std::array::from_fn(|_| None);
    let slots = views
        .get_mut(..crate::readback::uav_slot_count(device))
        .unwrap_or_default();
    // SAFETY: a live context; the slice has room for the device's slots, all asked for.
    unsafe { context.OMGetRenderTargetsAndUnorderedAccessViews(None, None, 0, Some(slots)) };
    let uavs = uav_plans(&views)?;

    // SAFETY: a live context.
    let topology = crate::convert::topology(unsafe { context.IAGetPrimitiveTopology() })?;
    // Stream output (section 14): the declaration of the program made with one, and the bound buffers (without a
    // declaration nothing streams, and bound buffers are left as they are).
    let mut geometry_program = geometry.is_some();
    let stream_output = match declared {
        Some((state, dxbc)) => {
            let (vertices_per_primitive, kind) = vertices_per_primitive(&dxbc, topology)?;
            // an object made from a vertex or domain program streams that program's output: no geometry stage runs
            geometry_program = kind == iridia::dxbc::program::ProgramKind::Geometry;
            let mut bound: [Option<ID3D11Buffer>; 4] = Default::default();
            // SAFETY: a live context; the array has room for the 4 targets asked for.
            unsafe { context.SOGetTargets(Some(&mut bound)) };
            let mut targets = Vec::new();
            for (slot, buffer) in bound.iter().enumerate() {
                let Some(buffer) = buffer else { continue };
                let mut desc = D3D11_BUFFER_DESC::default();
                // SAFETY: a live buffer; `desc` is writable.
                unsafe { buffer.GetDesc(&mut desc) };
                targets.push(StreamOutputTargetPlan {
                    slot: slot as u32,
                    resource: buffer.cast::<ID3D11Resource>().map_err(|e| e.to_string())?,
                    bytes: desc.ByteWidth,
                    offset: 0,
                });
            }
            Some(StreamOutputPlan {
                state,
                vertices_per_primitive,
                targets,
            })
        }
        None => None,
    };
    // SAFETY: a live context; the layout is AddRef'd and released on drop.
    let input_layout = match unsafe { context.IAGetInputLayout() } {
        Ok(layout) => {
            let child: ID3D11DeviceChild = layout.cast().map_err(|e| e.to_string())?;
            let json = private_data(&child, &LAYOUT_KEY)
                .ok_or("the input layout was created before the recorder saw its device")?;
            serde_json::from_slice(&json).map_err(|e| format!("the input layout's kept elements: {e}"))?
        }
        Err(_) => Vec::new(),
    };
    let mut buffers: [Option<ID3D11Buffer>; 32] = Default::default();
    let mut strides = [0u32; 32];
    let mut offsets = [0u32; 32];
    // SAFETY: a live context; each array has room for the 32 slots asked for.
    unsafe {
        context.IAGetVertexBuffers(
            0,
            32,
            Some(buffers.as_mut_ptr()),
            Some(strides.as_mut_ptr()),
            Some(offsets.as_mut_ptr()),
        )
    };
    let mut vertex_buffers = Vec::new();
    for (slot, buffer) in buffers.iter().enumerate() {
        if let Some(buffer) = buffer {
            let resource = buffer.cast::<ID3D11Resource>().map_err(|e| e.to_string())?;
            vertex_buffers.push((slot as u32, resource, strides[slot], offsets[slot]));
        }
    }
    let index_buffer = if call.is_indexed() {
        let mut buffer = None;
        let mut format = DXGI_FORMAT(0);
        let mut offset = 0u32;
        // SAFETY: a live context; the out-parameters are locals.
        unsafe { context.IAGetIndexBuffer(Some(&mut buffer), Some(&mut format), Some(&mut offset)) };
        match buffer {
            Some(buffer) => {
                let format = IndexFormat::from_format(crate::convert::format("index format", format)?)
                    .map_err(|e| e.to_string())?;
                Some((
                    buffer.cast::<ID3D11Resource>().map_err(|e| e.to_string())?,
                    format,
                    offset,
                ))
            }
            None => return Err("an indexed draw with no index buffer".into()),
        }
    } else {
        None
    };

    let context1 = context.cast::<ID3D11DeviceContext1>().ok();
    let vs = query_stage!(
        context,
        context1.as_ref(),
        "vertex shader",
        VSGetShader,
        VSGetConstantBuffers,
        VSGetConstantBuffers1,
        VSGetShaderResources,
        VSGetSamplers
    );
    if vs.dxbc.is_none() {
        return Err("no vertex shader is bound".into());
    }
    let hs = match hull {
        Some(_) => Some(query_stage!(
            context,
            context1.as_ref(),
            "hull shader",
            HSGetShader,
            HSGetConstantBuffers,
            HSGetConstantBuffers1,
            HSGetShaderResources,
            HSGetSamplers
        )),
        None => None,
    };
    let ds = match domain {
        Some(_) => Some(query_stage!(
            context,
            context1.as_ref(),
            "domain shader",
            DSGetShader,
            DSGetConstantBuffers,
            DSGetConstantBuffers1,
            DSGetShaderResources,
            DSGetSamplers
        )),
        None => None,
    };
    let gs = match geometry.filter(|_| geometry_program) {
        Some(_) => Some(query_stage!(
            context,
            context1.as_ref(),
            "geometry shader",
            GSGetShader,
            GSGetConstantBuffers,
            GSGetConstantBuffers1,
            GSGetShaderResources,
            GSGetSamplers
        )),
        None => None,
    };
    let ps = query_stage!(
        context,
        context1.as_ref(),
        "pixel shader",
        PSGetShader,
        PSGetConstantBuffers,
        PSGetConstantBuffers1,
        PSGetShaderResources,
        PSGetSamplers
    );

    // SAFETY: a live context; the state is AddRef'd and released on drop.
    let rasterizer = match unsafe { context.RSGetState() } {
        Ok(state) => {
            let mut desc = D3D11_RASTERIZER_DESC::default();
            // SAFETY: a live state; `desc` is writable.
            unsafe { state.GetDesc(&mut desc) };
            let mut converted = crate::convert::rasterizer(&desc)?;
            // D3D11.1's ForcedSampleCount (3.5.6) is on the state's ID3D11RasterizerState1 interface, when the
            // runtime has one
            if let Ok(state1) = state.cast::<ID3D11RasterizerState1>() {
                let mut desc1 = D3D11_RASTERIZER_DESC1::default();
                // SAFETY: a live state; `desc1` is writable.
                unsafe { state1.GetDesc1(&mut desc1) };
                converted.forced_sample_count = desc1.ForcedSampleCount;
            }
            converted
        }
        Err(_) => iridia::api::fixed_function::RasterizerDesc::default(),
    };
    let mut count = 16u32;
    let mut viewports = [D3D11_VIEWPORT::default(); 16];
    // SAFETY: a live context; the array has room for `count` viewports.
    unsafe { context.RSGetViewports(&mut count, Some(viewports.as_mut_ptr())) };
    let viewports = viewports
        .iter()
        .take(count as usize)
        .map(crate::convert::viewport)
        .collect();
    let mut count = 16u32;
    let mut rects = [RECT::default(); 16];
    // SAFETY: a live context; the array has room for `count` rectangles.
    unsafe { context.RSGetScissorRects(&mut count, Some(rects.as_mut_ptr())) };
    let scissor_rects = rects.iter().take(count as usize).map(crate::convert::scissor).collect();

    let mut blend_state = None;
    let mut blend_factor = [0f32; 4];
    let mut sample_mask = 0u32;
    // SAFETY: a live context; the out-parameters are locals.
    unsafe { context.OMGetBlendState(Some(&mut blend_state), Some(&mut blend_factor), Some(&mut sample_mask)) };
    let blend = match blend_state {
        Some(state) => {
            let desc = match state.cast::<ID3D11BlendState1>() {
                Ok(state1) => {
                    let mut desc = D3D11_BLEND_DESC1::default();
                    // SAFETY: a live state; `desc` is writable.
                    unsafe { state1.GetDesc1(&mut desc) };
                    desc
                }
                Err(_) => {
                    let mut desc = D3D11_BLEND_DESC::default();
                    // SAFETY: a live state; `desc` is writable.
                    unsafe { state.GetDesc(&mut desc) };
                    crate::convert::blend_desc1(&desc)
                }
            };
            crate::convert::blend(&desc)?
        }
        None => iridia::api::fixed_function::BlendDesc::default(),
    };
    let mut depth_state = None;
    let mut stencil_ref = 0u32;
    // SAFETY: a live context; the out-parameters are locals.
    unsafe { context.OMGetDepthStencilState(Some(&mut depth_state), Some(&mut stencil_ref)) };
    let depth_stencil = match depth_state {
        Some(state) => {
            let mut desc = D3D11_DEPTH_STENCIL_DESC::default();
            // SAFETY: a live state; `desc` is writable.
            unsafe { state.GetDesc(&mut desc) };
            crate::convert::depth_stencil(&desc)?
        }
        None => iridia::api::fixed_function::DepthStencilDesc::default(),
    };

    let mut views: [Option<ID3D11RenderTargetView>; RENDER_TARGET_SLOTS] = Default::default();
    let mut depth_view = None;
    // SAFETY: a live context; the array has room for every render-target slot and the depth view is a local.
    unsafe { context.OMGetRenderTargets(Some(&mut views), Some(&mut depth_view)) };
    let mut targets = Vec::new();
    for (slot, view) in views.iter().enumerate() {
        let Some(view) = view else { continue };
        let mut desc = D3D11_RENDER_TARGET_VIEW_DESC::default();
        // SAFETY: a live view; `desc` is writable.
        unsafe { view.GetDesc(&mut desc) };
        let view_format = desc.Format;
        let desc = crate::convert::render_target_view(&desc)?;
        // SAFETY: a live view; the resource is AddRef'd and released on drop.
        let resource = unsafe { view.GetResource() }.map_err(|e| e.to_string())?;
        targets.push(target_plan(
            resource,
            view_format,
            TargetView::RenderTarget(slot as u32, desc),
            Surface::of_render_target(&desc),
        )?);
    }
    if let Some(view) = depth_view {
        let mut desc = D3D11_DEPTH_STENCIL_VIEW_DESC::default();
        // SAFETY: a live view; `desc` is writable.
        unsafe { view.GetDesc(&mut desc) };
        let view_format = desc.Format;
        let desc = crate::convert::depth_stencil_view(&desc)?;
        // SAFETY: a live view; the resource is AddRef'd and released on drop.
        let resource = unsafe { view.GetResource() }.map_err(|e| e.to_string())?;
        targets.push(target_plan(
            resource,
            view_format,
            TargetView::DepthStencil(desc),
            Surface::of_depth_stencil(&desc),
        )?);
    }
    let streams = stream_output.as_ref().is_some_and(|so| !so.targets.is_empty());
    if targets.is_empty() && uavs.is_empty() && !streams {
        return Err(
            "the draw writes no render target, no depth-stencil target, no unordered access view and no \
             stream-output buffer"
                .into(),
        );
    }
    Ok(DrawPlan {
        call,
        indirect,
        auto,
        arguments: None,
        stream_output,
        topology,
        input_layout,
        vertex_buffers,
        index_buffer,
        vs,
        hs,
        ds,
        gs,
        ps,
        rasterizer,
        depth_stencil,
        stencil_ref,
        blend,
        blend_factor,
        sample_mask,
        viewports,
        scissor_rects,
        targets,
        uavs,
    })
}

/// A target's resource, shape and written subresource.
fn target_plan(
    resource: ID3D11Resource,
    view_format: DXGI_FORMAT,
    view: TargetView,
    surface: Surface,
) -> Result<TargetPlan> {
    let Described::Texture { shape, format } = describe(&resource)? else {
        return Err("a target's resource is a buffer".into());
    };
    let subresource = if shape.dimension == iridia::api::enums::ResourceDimension::Texture3D {
        surface.level
    } else {
        surface.level + surface.slice * shape.mip_levels
    };
    Ok(TargetPlan {
        view,
        view_format,
        resource,
        shape,
        format,
        subresource,
        surface,
    })
}

/// What the hooks report while a capture runs, passed on by the recorder's facade (`crate::recorder`).
impl ActiveCapture {
    /// Records a draw on the context `this`; `draw` makes the real draw (the caller makes it afterwards if this did
    /// not).
    pub fn record_draw(&mut self, this: *mut c_void, call: DrawCall, draw: &mut dyn FnMut()) {
        self.record_draw_call(this, call, None, false, None, draw);
    }

    /// Records a draw (direct, or the direct call an indirect draw's arguments made) on the context `this`.
    fn record_draw_call(
        &mut self,
        this: *mut c_void,
        call: DrawCall,
        indirect: Option<Indirect>,
        auto: bool,
        arguments: Option<ArgumentsPlan>,
        draw: &mut dyn FnMut(),
    ) {
        if self.fault_panic_draw == Some(self.draws) {
            #[allow(clippy::panic)] // the fault the setting asks for, caught by `recorder::guarded`
            {
                panic!("fault injected at draw {} (fault_panic_draw)", self.draws);
            }
        }
        // SAFETY: `this` is the live context the hooked draw was called on; borrowing adds no reference.
        let Some(context) = (unsafe { ID3D11DeviceContext::from_raw_borrowed(&this) }) else {
            return;
        };
        if let Err(reason) = self.record(context, call, indirect, auto, arguments, draw) {
            self.forget_streams(context);
            let api_call = match indirect {
                Some(indirect) => format!("{}(args, {})", indirect.name, indirect.offset),
                None if auto => "DrawAuto()".to_owned(),
                None => iridia::capture::api_call_text(call),
            };
            let entry = UnrecordedDrawEntry {
                before_draw: 0,
                name: Some(context_name(context).to_owned()),
                api_call: Some(api_call),
                reason,
                targets: bound_targets(context),
            };
            // SAFETY: a live context; `GetType` only reads it.
            let deferred = unsafe { context.GetType() } == D3D11_DEVICE_CONTEXT_DEFERRED;
            self.list_unrecorded(context, deferred, entry);
        }
    }

    /// Records a `ResolveSubresource` made on the context `this` (format 1.2's `resolves`): on the immediate
    /// context, the source's every sample (`crate::msaa`, read through the resolve format) and the destination
    /// subresource before, the real resolve (`resolve`, which the caller makes in any case; called here at most
    /// once), the destination subresource after, all mapped at once and sent to the writer. On a deferred context,
    /// or when a read fails, the resolve is only logged. Either way its destination is marked written.
    pub fn record_resolve(&mut self, this: *mut c_void, call: ResolveCall, resolve: &mut dyn FnMut()) {
        // SAFETY: `this` is the live context the hooked call was made on; borrowing adds no reference.
        if let Some(context) = unsafe { ID3D11DeviceContext::from_raw_borrowed(&this) } {
            match self.read_resolve(context, &call, resolve) {
                Ok(record) => {
                    self.resolves += 1;
                    self.writer.send_resolve(record);
                }
                Err(reason) => {
                    *self.unrecorded.entry("ResolveSubresource").or_default() += 1;
                    log!("resolve not recorded: {reason}");
                }
            }
        }
        self.bump(call.destination as usize);
    }

    /// The reads of a resolve around the real one (see [`ActiveCapture::record_resolve`]).
    fn read_resolve(
        &mut self,
        context: &ID3D11DeviceContext,
        call: &ResolveCall,
        resolve: &mut dyn FnMut(),
    ) -> Result<iridia::capture::ResolveRecord<Vec<u8>>> {
        // SAFETY: a live context; `GetType` only reads it.
        if unsafe { context.GetType() } == D3D11_DEVICE_CONTEXT_DEFERRED {
            return Err("made on a deferred context: the recorder records resolves on the immediate one".to_owned());
        }
        // SAFETY: both are the live resources the program passed; borrowing adds no reference.
        let (Some(source), Some(destination)) = (unsafe {
            (
                ID3D11Resource::from_raw_borrowed(&call.source),
                ID3D11Resource::from_raw_borrowed(&call.destination),
            )
        }) else {
            return Err("a null resource".to_owned());
        };
        // SAFETY: a live context; the device is AddRef'd and released on drop.
        let device = unsafe { context.GetDevice() }.map_err(|e| format!("GetDevice failed: {e}"))?;
        self.probe_layouts(&device);
        let format = crate::convert::format("resolve format", call.format)?;
        let Described::Texture {
            shape: source_shape, ..
        } = describe(source)?
        else {
            return Err("the source is a buffer".to_owned());
        };
        let Described::Texture {
            shape: destination_shape,
            format: destination_format,
        } = describe(destination)?
        else {
            return Err("the destination is a buffer".to_owned());
        };
        let level = call
            .destination_subresource
            .checked_rem(destination_shape.mip_levels)
            .unwrap_or(0);
        let convert = self.conversion(&device, destination_format)?;
        let mut reads = Vec::new();
        let suspended = Predication::suspend(context);
        let befores = self.read_resolve_befores(context, &device, call, source, &source_shape, level, &mut reads);
        suspended.restore(context);
        if let Err(e) = befores {
            self.discard(reads, false);
            return Err(e);
        }
        resolve();
        let suspended = Predication::suspend(context);
        let after = self.read_subresource(
            context,
            &device,
            destination,
            call.destination_subresource,
            level,
            convert,
        );
        suspended.restore(context);
        match after {
            Ok(read) => reads.push(read),
            Err(e) => {
                self.discard(reads, false);
                return Err(e);
            }
        }
        let mut mapped = Vec::with_capacity(reads.len());
        let mut failure = None;
        for read in reads {
            match resolve_read(context, &read, &[]) {
                Ok(mut data) if failure.is_none() => mapped.push(data.pop()),
                Ok(_) => {}
                Err(e) => failure = failure.or(Some(e)),
            }
            self.pool.release(read.staging);
        }
        if let Some(e) = failure {
            return Err(e);
        }
        let mut take = || mapped.remove(0).ok_or("a read gave no data".to_owned());
        let (source_data, before, after) = (take()?, take()?, take()?);
        Ok(iridia::capture::ResolveRecord {
            api_call: Some(format!(
                "ResolveSubresource(dst, {}, src, {}, {format})",
                call.destination_subresource, call.source_subresource
            )),
            format,
            source: source_shape,
            source_subresource: call.source_subresource,
            source_data,
            destination: destination_shape,
            destination_subresource: call.destination_subresource,
            destination_before: before,
            destination_after: Some(after),
        })
    }

    /// Issues the reads before a resolve: the source's every sample through the resolve format (`crate::msaa`),
    /// then the destination subresource at mip `level`.
    #[allow(clippy::too_many_arguments)] // one resolve's every input
    fn read_resolve_befores(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        call: &ResolveCall,
        source: &ID3D11Resource,
        source_shape: &TextureShape,
        level: u32,
        reads: &mut Vec<Read>,
    ) -> Result<()> {
        if source_shape.sample_count < 2 {
            return Err("the source has one sample per texel".to_owned());
        }
        self.read_sample_planes(context, device, source, source_shape, call.format, reads)?;
        // SAFETY: the program's live destination; borrowing adds no reference.
        let destination =
            unsafe { ID3D11Resource::from_raw_borrowed(&call.destination) }.ok_or("a null destination")?;
        let Described::Texture { format, .. } = describe(destination)? else {
            return Err("the destination is a buffer".to_owned());
        };
        let convert = self.conversion(device, format)?;
        let read = self.read_subresource(
            context,
            device,
            destination,
            call.destination_subresource,
            level,
            convert,
        )?;
        reads.push(read);
        Ok(())
    }

    /// Issues a staging copy of subresource `subresource` (at mip `level`) of the 2D texture `resource`.
    fn read_subresource(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        resource: &ID3D11Resource,
        subresource: u32,
        level: u32,
        convert: Conversion,
    ) -> Result<Read> {
        let Described::Texture { shape, format } = describe(resource)? else {
            return Err("a buffer".to_owned());
        };
        if shape.dimension != iridia::api::enums::ResourceDimension::Texture2D || shape.sample_count != 1 {
            return Err(format!(
                "the destination is a {} of {} samples, not a single-sampled 2D texture",
                shape.dimension, shape.sample_count
            ));
        }
        let desc = StagingDesc::surface(&shape, format, level);
        let staging = self.staging_for(device, resource.as_raw() as usize, desc)?;
        // SAFETY: both resources are live; the staging texture has the subresource's size and the resource's
        // format.
        unsafe { context.CopySubresourceRegion(&staging.resource, 0, 0, 0, 0, resource, subresource, None) };
        let shape = staging.desc().shape(shape.format);
        Ok(Read {
            staging,
            kind: ReadKind::Surface { shape },
            cache: None,
            convert,
        })
    }

    /// Records `DrawInstancedIndirect` (`indexed` false) or `DrawIndexedInstancedIndirect` on the context `this`
    /// as the direct call its arguments make (format 1.4's `indirect`; 8.7: `VertexCountPerInstance, InstanceCount,
    /// StartVertexLocation, StartInstanceLocation`, 8.8: `IndexCountPerInstance, InstanceCount, StartIndexLocation,
    /// BaseVertexLocation, StartInstanceLocation`), the real indirect call (`draw`) made in its place. On the
    /// immediate context the argument words at `offset` are read first; on a deferred context they are only there
    /// when the command list runs, so their staging copy travels in the list with the draw's other reads and the
    /// call is put in its place when they are mapped, after `ExecuteCommandList`.
    pub fn record_indirect_draw(
        &mut self,
        this: *mut c_void,
        indexed: bool,
        args: *mut c_void,
        offset: u32,
        draw: &mut dyn FnMut(),
    ) {
        let indirect = Indirect {
            name: if indexed {
                "DrawIndexedInstancedIndirect"
            } else {
                "DrawInstancedIndirect"
            },
            offset,
        };
        // SAFETY: `this` is the live context the hooked call was made on; borrowing adds no reference.
        let Some(context) = (unsafe { ID3D11DeviceContext::from_raw_borrowed(&this) }) else {
            return;
        };
        match self.indirect_call(context, indexed, args, offset) {
            Ok((call, arguments)) => self.record_draw_call(this, call, Some(indirect), false, arguments, draw),
            Err(reason) => {
                let entry = UnrecordedDrawEntry {
                    before_draw: 0,
                    name: Some(context_name(context).to_owned()),
                    api_call: Some(format!("{}(args, {offset})", indirect.name)),
                    reason,
                    targets: bound_targets(context),
                };
                // SAFETY: a live context; `GetType` only reads it.
                let deferred = unsafe { context.GetType() } == D3D11_DEVICE_CONTEXT_DEFERRED;
                self.list_unrecorded(context, deferred, entry);
            }
        }
    }

    /// The direct call an indirect draw's arguments make (see [`ActiveCapture::record_indirect_draw`]), read at
    /// once on the immediate context; on a deferred context a call of the kind standing for it, with where the
    /// arguments are, to be read with the draw when its command list runs.
    fn indirect_call(
        &mut self,
        context: &ID3D11DeviceContext,
        indexed: bool,
        args: *mut c_void,
        offset: u32,
    ) -> Result<(DrawCall, Option<ArgumentsPlan>)> {
        // SAFETY: a live context; the device is AddRef'd and released on drop.
        let device = unsafe { context.GetDevice() }.map_err(|e| format!("GetDevice failed: {e}"))?;
        let words = if indexed { 5 } else { 4 };
        let stand_in = if indexed {
            DrawCall::DrawIndexedInstanced {
                index_count_per_instance: 0,
                instance_count: 0,
                start_index: 0,
                base_vertex: 0,
                start_instance: 0,
            }
        } else {
            DrawCall::DrawInstanced {
                vertex_count_per_instance: 0,
                instance_count: 0,
                start_vertex: 0,
                start_instance: 0,
            }
        };
        // SAFETY: a live context; `GetType` only reads it.
        if unsafe { context.GetType() } == D3D11_DEVICE_CONTEXT_DEFERRED {
            return Ok((stand_in, Some(argument_plan(args, offset, words)?)));
        }
        let words = self.read_arguments(context, &device, args, offset, words)?;
        Ok((call_from_arguments(stand_in, &words)?, None))
    }

    /// Records a `Dispatch` (`groups`) or `DispatchIndirect` (`indirect`: the argument buffer and offset) made on
    /// the context `this` (format 1.3's dispatches, D3D11.3 section 18): the compute stage's program and bindings
    /// and each bound view's resource (and counter) are read before, the real dispatch is made (`dispatch`, which the
    /// caller makes in any case; called here at most once), each view is read again after, and the dispatch goes to
    /// the writer in its place among the draws and resolves — on a deferred context where its command list runs, its
    /// reads travelling in the list. A dispatch writes nothing but its views (18.5), so only their resources are
    /// marked written. When a read fails the dispatch is only logged and counted, and every cached content is stale.
    pub fn record_dispatch(
        &mut self,
        this: *mut c_void,
        groups: [u32; 3],
        indirect: Option<(*mut c_void, u32)>,
        dispatch: &mut dyn FnMut(),
    ) {
        // SAFETY: `this` is the live context the hooked call was made on; borrowing adds no reference.
        let Some(context) = (unsafe { ID3D11DeviceContext::from_raw_borrowed(&this) }) else {
            self.epoch += 1;
            return;
        };
        let name = if indirect.is_some() {
            "DispatchIndirect"
        } else {
            "Dispatch"
        };
        match self.read_dispatch(context, groups, indirect, dispatch) {
            Ok(Some(pending)) => self.complete_dispatch(context, pending, false),
            Ok(None) => {}
            Err(reason) => {
                *self.unrecorded.entry(name).or_default() += 1;
                self.epoch += 1;
                log!("dispatch not recorded: {name}: {reason}");
            }
        }
    }

    /// The reads of a dispatch around the real one (see [`ActiveCapture::record_dispatch`]): on the immediate
    /// context the dispatch with its reads, to be mapped; on a deferred one `None`, the dispatch waiting in the
    /// context's command list (its reads travel in it) until `ExecuteCommandList`.
    fn read_dispatch(
        &mut self,
        context: &ID3D11DeviceContext,
        groups: [u32; 3],
        indirect: Option<(*mut c_void, u32)>,
        dispatch: &mut dyn FnMut(),
    ) -> Result<Option<PendingDispatch>> {
        // SAFETY: a live context; `GetType` only reads it.
        let deferred = unsafe { context.GetType() } == D3D11_DEVICE_CONTEXT_DEFERRED;
        // SAFETY: a live context; the device is AddRef'd and released on drop.
        let device = unsafe { context.GetDevice() }.map_err(|e| format!("GetDevice failed: {e}"))?;
        self.probe_layouts(&device);
        // On a deferred context the arguments are only there where the command list runs: their staging copy
        // travels in it and the groups are filled in when it is mapped (18.6.5's three words).
        let mut arguments = None;
        let (groups, indirect) = match indirect {
            Some((args, offset)) => {
                let indirect = Some(Indirect {
                    name: "DispatchIndirect",
                    offset,
                });
                if deferred {
                    arguments = Some(argument_plan(args, offset, 3)?);
                    ([0; 3], indirect)
                } else {
                    let words = self.read_arguments(context, &device, args, offset, 3)?;
                    let word = |i: usize| words.get(i).copied().ok_or("the arguments were not read whole");
                    ([word(0)?, word(1)?, word(2)?], indirect)
                }
            }
            None => (groups, None),
        };
        let context1 = context.cast::<ID3D11DeviceContext1>().ok();
        let cs = query_stage!(
            context,
            context1.as_ref(),
            "compute shader",
            CSGetShader,
            CSGetConstantBuffers,
            CSGetConstantBuffers1,
            CSGetShaderResources,
            CSGetSamplers
        );
        if cs.dxbc.is_none() {
            return Err("no compute shader is bound".to_owned());
        }
        let mut views: [Option<ID3D11UnorderedAccessView>; 64] = std::array::from_fn(|_| None);
        let slots = views
            .get_mut(..crate::readback::uav_slot_count(&device))
            .unwrap_or_default();
        // SAFETY: a live context; the slice has room for the device's slots, all asked for.
        unsafe { context.CSGetUnorderedAccessViews(0, Some(slots)) };
        let uavs = uav_plans(&views)?;
        let mut reads = Vec::new();
        let suspended = Predication::suspend(context);
        let gathered = self
            .gather_stage(context, &device, &cs, deferred, &mut reads)
            .and_then(|stage| {
                let views = self.gather_uavs(context, &device, &uavs, deferred, &mut reads)?;
                let arguments = match &arguments {
                    Some(arguments) => Some(self.read_argument_words(context, &device, arguments, &mut reads)?),
                    None => None,
                };
                Ok((stage, views, arguments))
            });
        suspended.restore(context);
        let (cs, mut views, arguments) = match gathered {
            Ok(gathered) => gathered,
            Err(e) => {
                self.discard(reads, deferred);
                return Err(e);
            }
        };
        dispatch();
        let suspended = Predication::suspend(context);
        let afters = self.read_uav_afters(context, &device, &uavs, &mut views, deferred, &mut reads);
        suspended.restore(context);
        if let Err(e) = afters {
            self.discard(reads, deferred);
            return Err(e);
        }
        let job = DispatchJob {
            name: None,
            groups,
            indirect,
            arguments,
            cs,
            uavs: views,
        };
        let pending = PendingDispatch { job, reads };
        if deferred {
            self.deferred
                .entry(context.as_raw() as usize)
                .or_default()
                .push(Pending::Dispatch(Box::new(pending)));
            return Ok(None);
        }
        Ok(Some(pending))
    }

    /// Maps a dispatch's reads on the immediate context `context` and sends the dispatch to the writer (an
    /// indirect one's groups filled in from its arguments when they were read with it); a failure is logged and
    /// counted.
    fn complete_dispatch(&mut self, context: &ID3D11DeviceContext, pending: PendingDispatch, from_command_list: bool) {
        let name = if pending.job.indirect.is_some() {
            "DispatchIndirect"
        } else {
            "Dispatch"
        };
        let completed = self
            .map_reads(context, pending.reads, from_command_list)
            .and_then(|results| {
                pending.job.map(&mut |data| match data {
                    DataRef::Ready(bytes) => Ok(bytes),
                    DataRef::Read(read, sub) => results
                        .get(read)
                        .and_then(|r| r.get(sub))
                        .cloned()
                        .ok_or_else(|| "a read gave fewer subresources than expected".to_owned()),
                })
            })
            .and_then(|mut job| {
                if let Some(arguments) = job.arguments.take() {
                    let word = |i: usize| {
                        arguments
                            .get(i * 4..i * 4 + 4)
                            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                            .ok_or("the arguments were not read whole")
                    };
                    job.groups = [word(0)?, word(1)?, word(2)?];
                }
                Ok(job)
            });
        match completed {
            Ok(job) => {
                self.dispatches += 1;
                self.writer.send_dispatch(job);
            }
            Err(reason) => {
                *self.unrecorded.entry(name).or_default() += 1;
                self.epoch += 1;
                log!("dispatch not recorded: {name}: {reason}");
            }
        }
    }

    /// Records `DrawAuto` on the context `this` (format 1.4's `DrawAuto` call): the vertices it draws are what
    /// stream output left in the buffer bound as vertex buffer 0 — its filled size less the binding's offset, over
    /// the binding's stride (D3D11.3 8.9, 14.4) — which the recorder knows when a draw it recorded streamed to the
    /// buffer last ([`ActiveCapture::filled`]); then it is recorded as that `Draw`, the real `DrawAuto` (`draw`) made
    /// in its place. When the count cannot be known the draw is listed as not recorded, with why.
    pub fn record_auto(&mut self, this: *mut c_void, draw: &mut dyn FnMut()) {
        // SAFETY: `this` is the live context the hooked call was made on; borrowing adds no reference.
        let Some(context) = (unsafe { ID3D11DeviceContext::from_raw_borrowed(&this) }) else {
            self.epoch += 1;
            return;
        };
        match self.auto_call(context) {
            Ok(call) => self.record_draw_call(this, call, None, true, None, draw),
            Err(reason) => {
                self.forget_streams(context);
                let entry = UnrecordedDrawEntry {
                    before_draw: 0,
                    name: Some(context_name(context).to_owned()),
                    api_call: Some("DrawAuto()".to_owned()),
                    reason,
                    targets: bound_targets(context),
                };
                // SAFETY: a live context; `GetType` only reads it.
                let deferred = unsafe { context.GetType() } == D3D11_DEVICE_CONTEXT_DEFERRED;
                self.list_unrecorded(context, deferred, entry);
            }
        }
    }

    /// The `Draw` a `DrawAuto` amounts to (see [`ActiveCapture::record_auto`]).
    fn auto_call(&self, context: &ID3D11DeviceContext) -> Result<DrawCall> {
        // SAFETY: a live context; `GetType` only reads it.
        if unsafe { context.GetType() } == D3D11_DEVICE_CONTEXT_DEFERRED {
            return Err(
                "DrawAuto on a deferred context: the filled size it draws is the one where the command list \
                        runs, which the recorder does not know when the draw is made"
                    .to_owned(),
            );
        }
        let mut buffers: [Option<ID3D11Buffer>; 1] = Default::default();
        let mut strides = [0u32; 1];
        let mut offsets = [0u32; 1];
        // SAFETY: a live context; each array has room for the 1 slot asked for.
        unsafe {
            context.IAGetVertexBuffers(
                0,
                1,
                Some(buffers.as_mut_ptr()),
                Some(strides.as_mut_ptr()),
                Some(offsets.as_mut_ptr()),
            )
        };
        let [Some(buffer)] = &buffers else {
            return Err("DrawAuto with no vertex buffer in slot 0: it draws from none (8.9)".to_owned());
        };
        let [stride] = strides;
        let [offset] = offsets;
        if stride == 0 {
            return Err("DrawAuto with a vertex stride of 0 in slot 0: its vertex count is undefined (8.9)".to_owned());
        }
        let Some((filled, _)) = self.filled.get(&(buffer.as_raw() as usize)) else {
            return Err(
                "DrawAuto draws what stream output left in vertex buffer 0, whose filled size the recorder \
                        does not know (no draw it recorded streamed to it)"
                    .to_owned(),
            );
        };
        Ok(DrawCall::Draw {
            vertex_count: filled.saturating_sub(offset) / stride,
            start_vertex: 0,
        })
    }

    /// Records an event made on the context `context` (a raw `ID3D11DeviceContext`; format 1.5's `events`): named
    /// now ([`EventCall::text`], while the program's pointers are live) and sent to the writer after the draws,
    /// resolves and dispatches before it; on a deferred context it waits in the context's command list, like a
    /// draw, and is sent where the list runs.
    pub fn record_event(&mut self, context: *mut c_void, call: EventCall) {
        // SAFETY: `context` is a live context (the hooked call's, or the one its annotation interface belongs to);
        // borrowing adds no reference.
        let Some(context_ref) = (unsafe { ID3D11DeviceContext::from_raw_borrowed(&context) }) else {
            return;
        };
        let kind = call.kind();
        let text = call.text();
        // SAFETY: a live context; `GetType` only reads it.
        if unsafe { context_ref.GetType() } == D3D11_DEVICE_CONTEXT_DEFERRED {
            self.deferred
                .entry(context as usize)
                .or_default()
                .push(Pending::Event(kind, text));
        } else {
            self.events += 1;
            self.writer.send_event(kind, text);
        }
    }

    /// Records an event made on no context (`D3DPERF_*`): placed as the immediate context's are, where it comes.
    pub fn record_unbound_event(&mut self, call: EventCall) {
        self.events += 1;
        self.writer.send_event(call.kind(), call.text());
    }

    /// Notes that the resource at `resource` (a raw `ID3D11Resource`) was written.
    pub fn wrote(&mut self, resource: *mut c_void) {
        self.bump(resource as usize);
    }

    /// Notes that the resource of the view `view` (a raw `ID3D11View`) was written.
    pub fn wrote_view(&mut self, view: *mut c_void) {
        // SAFETY: `view` is the live view the program passed; borrowing adds no reference.
        if let Some(view) = unsafe { ID3D11View::from_raw_borrowed(&view) }
            // SAFETY: a live view; the resource is AddRef'd and released on drop.
            && let Ok(resource) = unsafe { view.GetResource() }
        {
            self.bump(resource.as_raw() as usize);
        }
    }

    /// Notes that the resource at `resource` (a raw `ID3D11Resource`) was discarded: its contents are undefined.
    pub fn discarded(&mut self, resource: *mut c_void) {
        self.discard_contents(resource as usize);
    }

    /// Notes that the resource of the view `view` (a raw `ID3D11View`) was discarded.
    pub fn discarded_view(&mut self, view: *mut c_void) {
        // SAFETY: `view` is the live view the program passed; borrowing adds no reference.
        if let Some(view) = unsafe { ID3D11View::from_raw_borrowed(&view) }
            // SAFETY: a live view; the resource is AddRef'd and released on drop.
            && let Ok(resource) = unsafe { view.GetResource() }
        {
            self.discard_contents(resource.as_raw() as usize);
        }
    }

    /// Carries the draws a deferred context recorded into the command list it just finished.
    pub fn finished_list(&mut self, context: *mut c_void, list: *mut c_void) {
        let draws = self.deferred.remove(&(context as usize)).unwrap_or_default();
        // SAFETY: `list` is the live command list the runtime just returned; cloning adds a reference, which keeps
        // its address from being reused while its draws wait.
        if let Some(handle) = unsafe { ID3D11CommandList::from_raw_borrowed(&list) } {
            self.lists.insert(list as usize, (handle.clone(), draws));
        }
    }

    /// After a command list ran on `context`: on the immediate context, its draws are read back and written; on a
    /// deferred one, they join that context's draws.
    pub fn executed_list(&mut self, context: *mut c_void, list: *mut c_void) {
        let Some((_list, draws)) = self.lists.remove(&(list as usize)) else {
            self.epoch += 1;
            return;
        };
        // SAFETY: `context` is the live context the hooked call was made on; borrowing adds no reference.
        let Some(context_ref) = (unsafe { ID3D11DeviceContext::from_raw_borrowed(&context) }) else {
            return;
        };
        // SAFETY: a live context; `GetType` only reads it.
        if unsafe { context_ref.GetType() } == D3D11_DEVICE_CONTEXT_DEFERRED {
            self.deferred.entry(context as usize).or_default().extend(draws);
        } else {
            for draw in draws {
                match draw {
                    Pending::Draw(draw) => self.complete(context_ref, *draw, true),
                    Pending::Dispatch(dispatch) => self.complete_dispatch(context_ref, *dispatch, true),
                    Pending::Unrecorded(entry) => self.writer.send_unrecorded(entry),
                    Pending::Event(kind, text) => {
                        self.events += 1;
                        self.writer.send_event(kind, text);
                    }
                }
            }
        }
        self.epoch += 1;
    }
}

/// The name an unrecorded draw's entry gets: which kind of context it was issued on. (Recorded draws and
/// dispatches get none: the library names them by their call and state, and the frame's markers place them.)
fn context_name(context: &ID3D11DeviceContext) -> &'static str {
    // SAFETY: a live context; `GetType` only reads it.
    if unsafe { context.GetType() } == D3D11_DEVICE_CONTEXT_DEFERRED {
        "deferred context"
    } else {
        "immediate context"
    }
}

/// The context an unrecorded draw mapped on the immediate context came from: a command list's (a deferred
/// context) or the immediate context's own.
fn listed_context(from_command_list: bool) -> &'static str {
    if from_command_list {
        "deferred context"
    } else {
        "immediate context"
    }
}

/// The entry listing `job` as not recorded, for `reason`: its call, context (`context`, named by
/// [`context_name`]) and targets (each surface's view format, size and the resource's sample count).
fn unrecorded_entry<D>(job: &DrawJob<D>, reason: String, context: &str) -> UnrecordedDrawEntry {
    let targets = job
        .targets
        .iter()
        .map(|target| {
            let (name, format, level) = match target.view {
                TargetView::RenderTarget(slot, view) => (format!("rt{slot}"), view.format, view.mip_slice),
                TargetView::DepthStencil(view) => ("depth".to_owned(), view.format, view.mip_slice),
            };
            let [width, height, _] = target.shape.mip_size(level);
            UnrecordedTargetEntry {
                target: name,
                format,
                width,
                height,
                sample_count: target.shape.sample_count,
            }
        })
        .collect();
    UnrecordedDrawEntry {
        before_draw: 0,
        name: Some(context.to_owned()),
        api_call: Some(job.api_call()),
        reason,
        targets,
    }
}

/// The targets bound on `context`, as far as they can be described (a view or resource the recorder cannot
/// describe is left out): for the entry of a draw that was not recorded.
fn bound_targets(context: &ID3D11DeviceContext) -> Vec<UnrecordedTargetEntry> {
    let mut views: [Option<ID3D11RenderTargetView>; RENDER_TARGET_SLOTS] = Default::default();
    let mut depth_view = None;
    // SAFETY: a live context; the array has room for every render-target slot and the depth view is a local.
    unsafe { context.OMGetRenderTargets(Some(&mut views), Some(&mut depth_view)) };
    let entry = |name: String, format: iridia::format::Format, level: u32, view: &ID3D11View| {
        // SAFETY: a live view; the resource is AddRef'd and released on drop.
        let resource = unsafe { view.GetResource() }.ok()?;
        let Ok(Described::Texture { shape, .. }) = describe(&resource) else {
            return None;
        };
        let [width, height, _] = shape.mip_size(level);
        Some(UnrecordedTargetEntry {
            target: name,
            format,
            width,
            height,
            sample_count: shape.sample_count,
        })
    };
    let mut targets = Vec::new();
    for (slot, view) in views.iter().enumerate() {
        let Some(view) = view else { continue };
        let mut desc = D3D11_RENDER_TARGET_VIEW_DESC::default();
        // SAFETY: a live view; `desc` is writable.
        unsafe { view.GetDesc(&mut desc) };
        let Ok(desc) = crate::convert::render_target_view(&desc) else {
            continue;
        };
        if let Ok(view) = view.cast::<ID3D11View>()
            && let Some(target) = entry(format!("rt{slot}"), desc.format, desc.mip_slice, &view)
        {
            targets.push(target);
        }
    }
    if let Some(view) = depth_view {
        let mut desc = D3D11_DEPTH_STENCIL_VIEW_DESC::default();
        // SAFETY: a live view; `desc` is writable.
        unsafe { view.GetDesc(&mut desc) };
        if let Ok(desc) = crate::convert::depth_stencil_view(&desc)
            && let Ok(view) = view.cast::<ID3D11View>()
            && let Some(target) = entry("depth".to_owned(), desc.format, desc.mip_slice, &view)
        {
            targets.push(target);
        }
    }
    targets
}
