//! A recorded draw on its way to the capture file: [`DrawJob`] holds the draw's state and its data — of type `D`,
//! which is a reference to a pending read while the recorder gathers it and the bytes once read — and the writer
//! thread turns it into a manifest entry, hashing and compressing its blobs ([`WriterThread`]).

use crate::log::log;
use crate::readback::Bytes;
use iridia::api::draw::{DrawCall, IndexFormat};
use iridia::api::enums::PrimitiveTopology;
use iridia::api::fixed_function::{BlendDesc, DepthStencilDesc, InputElementDesc, RasterizerDesc};
use iridia::api::resource::{
    DepthStencilViewDesc, RenderTargetViewDesc, SamplerDesc, ShaderResourceViewDesc, TextureShape,
};
use iridia::api::viewport::{Scissor, Viewport};
use iridia::capture::CaptureWriter;
use iridia::capture::manifest::{
    BlobRef, ConstantBufferEntry, DepthStencilTargetEntry, DrawEntry, F32, IndexBufferEntry, RenderTargetEntry,
    ResourceEntry, SamplerEntry, ShaderResourceEntry, StageEntry, VertexBufferEntry,
};
use iridia::capture::{ResolveRecord, UnrecordedDrawEntry};
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;
use std::time::Duration;

/// A resource's contents: a buffer, or a texture's every subresource.
pub enum ResourceJob<D> {
    /// A whole buffer.
    Buffer(D),
    /// A texture's shape and subresources in D3D11's order.
    Texture(TextureShape, Vec<D>),
}

/// One stage's bindings.
pub struct StageJob<D> {
    /// The program's DXBC, if a program is bound.
    pub dxbc: Option<Bytes>,
    /// (slot, buffer, first constant, constants).
    pub constant_buffers: Vec<(u32, D, u32, u32)>,
    /// (slot, view, resource).
    pub shader_resources: Vec<(u32, ShaderResourceViewDesc, ResourceJob<D>)>,
    /// (slot, sampler).
    pub samplers: Vec<(u32, SamplerDesc)>,
}

/// A target's view.
#[derive(Clone, Copy, Debug)]
pub enum TargetView {
    /// A render target view in a slot.
    RenderTarget(u32, RenderTargetViewDesc),
    /// The depth-stencil view.
    DepthStencil(DepthStencilViewDesc),
}

/// A target with its surface before and after the draw.
pub struct TargetJob<D> {
    /// Its view.
    pub view: TargetView,
    /// The shape of the whole resource.
    pub shape: TextureShape,
    /// The written surface before the draw.
    pub before: D,
    /// The written surface after it.
    pub after: D,
}

/// One draw: everything a manifest entry holds.
pub struct DrawJob<D> {
    /// The call.
    pub call: DrawCall,
    /// A note for the entry's name (which context, which path).
    pub name: Option<String>,
    /// The topology.
    pub topology: PrimitiveTopology,
    /// The input layout's elements.
    pub input_layout: Vec<InputElementDesc>,
    /// (slot, buffer, stride, offset).
    pub vertex_buffers: Vec<(u32, D, u32, u32)>,
    /// (buffer, format, offset).
    pub index_buffer: Option<(D, IndexFormat, u32)>,
    /// The vertex stage.
    pub vs: StageJob<D>,
    /// The hull stage, when a program is bound (then a domain program is too).
    pub hs: Option<StageJob<D>>,
    /// The domain stage, when a program is bound (then a hull program is too).
    pub ds: Option<StageJob<D>>,
    /// The geometry stage, when a program is bound.
    pub gs: Option<StageJob<D>>,
    /// The pixel stage.
    pub ps: StageJob<D>,
    /// Rasterizer state.
    pub rasterizer: RasterizerDesc,
    /// Depth-stencil state.
    pub depth_stencil: DepthStencilDesc,
    /// Stencil reference.
    pub stencil_ref: u32,
    /// Blend state.
    pub blend: BlendDesc,
    /// Blend factor.
    pub blend_factor: [f32; 4],
    /// Sample mask.
    pub sample_mask: u32,
    /// Viewports.
    pub viewports: Vec<Viewport>,
    /// Scissor rectangles.
    pub scissor_rects: Vec<Scissor>,
    /// Render targets and the depth-stencil target.
    pub targets: Vec<TargetJob<D>>,
}

impl<D> StageJob<D> {
    fn map<E>(self, f: &mut impl FnMut(D) -> Result<E, String>) -> Result<StageJob<E>, String> {
        let mut constant_buffers = Vec::with_capacity(self.constant_buffers.len());
        for (slot, data, first, count) in self.constant_buffers {
            constant_buffers.push((slot, f(data)?, first, count));
        }
        let mut shader_resources = Vec::with_capacity(self.shader_resources.len());
        for (slot, view, resource) in self.shader_resources {
            let resource = match resource {
                ResourceJob::Buffer(data) => ResourceJob::Buffer(f(data)?),
                ResourceJob::Texture(shape, subresources) => {
                    ResourceJob::Texture(shape, subresources.into_iter().map(&mut *f).collect::<Result<_, _>>()?)
                }
            };
            shader_resources.push((slot, view, resource));
        }
        Ok(StageJob {
            dxbc: self.dxbc,
            constant_buffers,
            shader_resources,
            samplers: self.samplers,
        })
    }
}

impl<D> DrawJob<D> {
    /// The same draw with each piece of data mapped through `f` (a pending read to its bytes).
    pub fn map<E>(self, f: &mut impl FnMut(D) -> Result<E, String>) -> Result<DrawJob<E>, String> {
        let mut vertex_buffers = Vec::with_capacity(self.vertex_buffers.len());
        for (slot, data, stride, offset) in self.vertex_buffers {
            vertex_buffers.push((slot, f(data)?, stride, offset));
        }
        let index_buffer = match self.index_buffer {
            Some((data, format, offset)) => Some((f(data)?, format, offset)),
            None => None,
        };
        let mut targets = Vec::with_capacity(self.targets.len());
        for target in self.targets {
            targets.push(TargetJob {
                view: target.view,
                shape: target.shape,
                before: f(target.before)?,
                after: f(target.after)?,
            });
        }
        Ok(DrawJob {
            call: self.call,
            name: self.name,
            topology: self.topology,
            input_layout: self.input_layout,
            vertex_buffers,
            index_buffer,
            vs: self.vs.map(f)?,
            hs: match self.hs {
                Some(hs) => Some(hs.map(f)?),
                None => None,
            },
            ds: match self.ds {
                Some(ds) => Some(ds.map(f)?),
                None => None,
            },
            gs: match self.gs {
                Some(gs) => Some(gs.map(f)?),
                None => None,
            },
            ps: self.ps.map(f)?,
            rasterizer: self.rasterizer,
            depth_stencil: self.depth_stencil,
            stencil_ref: self.stencil_ref,
            blend: self.blend,
            blend_factor: self.blend_factor,
            sample_mask: self.sample_mask,
            viewports: self.viewports,
            scissor_rects: self.scissor_rects,
            targets,
        })
    }
}

/// The capture writer the thread owns.
type Writer = CaptureWriter<BufWriter<File>>;

/// Adds a blob, with the writer's error as text.
fn blob(writer: &mut Writer, data: &Bytes) -> Result<BlobRef, String> {
    writer.add_shared(data).map_err(|e| e.to_string())
}

/// A stage's manifest entry, adding its blobs.
fn stage_entry(writer: &mut Writer, stage: &StageJob<Bytes>) -> Result<StageEntry, String> {
    let dxbc = match &stage.dxbc {
        Some(dxbc) => Some(blob(writer, dxbc)?),
        None => None,
    };
    let mut constant_buffers = Vec::new();
    for (slot, data, first_constant, num_constants) in &stage.constant_buffers {
        constant_buffers.push(ConstantBufferEntry {
            slot: *slot,
            data: blob(writer, data)?,
            first_constant: *first_constant,
            num_constants: *num_constants,
        });
    }
    let mut shader_resources = Vec::new();
    for (slot, view, resource) in &stage.shader_resources {
        let resource = match resource {
            ResourceJob::Buffer(data) => ResourceEntry::Buffer {
                data: blob(writer, data)?,
            },
            ResourceJob::Texture(shape, subresources) => ResourceEntry::Texture {
                shape: shape.into(),
                subresources: subresources
                    .iter()
                    .map(|data| blob(writer, data))
                    .collect::<Result<_, _>>()?,
            },
        };
        shader_resources.push(ShaderResourceEntry {
            slot: *slot,
            view: view.into(),
            resource,
        });
    }
    let samplers = stage
        .samplers
        .iter()
        .map(|(slot, s)| SamplerEntry {
            slot: *slot,
            filter: s.filter,
            address_u: s.address_u,
            address_v: s.address_v,
            address_w: s.address_w,
            mip_lod_bias: F32(s.mip_lod_bias),
            max_anisotropy: s.max_anisotropy,
            comparison: s.comparison,
            border_color: s.border_color.map(F32),
            min_lod: F32(s.min_lod),
            max_lod: F32(s.max_lod),
        })
        .collect();
    Ok(StageEntry {
        dxbc,
        constant_buffers,
        shader_resources,
        samplers,
    })
}

/// A draw's manifest entry, adding its blobs.
fn draw_entry(writer: &mut Writer, job: &DrawJob<Bytes>) -> Result<DrawEntry, String> {
    let mut vertex_buffers = Vec::new();
    for (slot, data, stride, offset) in &job.vertex_buffers {
        vertex_buffers.push(VertexBufferEntry {
            slot: *slot,
            data: blob(writer, data)?,
            stride: *stride,
            offset: *offset,
        });
    }
    let index_buffer = match &job.index_buffer {
        Some((data, format, offset)) => Some(IndexBufferEntry {
            data: blob(writer, data)?,
            format: *format,
            offset: *offset,
        }),
        None => None,
    };
    let vs = stage_entry(writer, &job.vs)?;
    let hs = match &job.hs {
        Some(hs) => Some(stage_entry(writer, hs)?),
        None => None,
    };
    let ds = match &job.ds {
        Some(ds) => Some(stage_entry(writer, ds)?),
        None => None,
    };
    let gs = match &job.gs {
        Some(gs) => Some(stage_entry(writer, gs)?),
        None => None,
    };
    let ps = stage_entry(writer, &job.ps)?;
    let mut render_targets = Vec::new();
    let mut depth_stencil_view = None;
    for target in &job.targets {
        let before = blob(writer, &target.before)?;
        let after = Some(blob(writer, &target.after)?);
        match target.view {
            TargetView::RenderTarget(slot, view) => render_targets.push(RenderTargetEntry {
                slot,
                view: (&view).into(),
                resource: (&target.shape).into(),
                before,
                after,
            }),
            TargetView::DepthStencil(view) => {
                depth_stencil_view = Some(DepthStencilTargetEntry {
                    view: (&view).into(),
                    resource: (&target.shape).into(),
                    before,
                    after,
                })
            }
        }
    }
    Ok(DrawEntry {
        name: job.name.clone(),
        api_call: Some(iridia::capture::api_call_text(job.call)),
        call: job.call.into(),
        topology: job.topology,
        input_layout: job.input_layout.iter().map(Into::into).collect(),
        vertex_buffers,
        index_buffer,
        vs,
        ps,
        rasterizer: (&job.rasterizer).into(),
        depth_stencil: (&job.depth_stencil).into(),
        stencil_ref: job.stencil_ref,
        blend: (&job.blend).into(),
        blend_factor: job.blend_factor.map(F32),
        sample_mask: job.sample_mask,
        viewports: job.viewports.iter().map(Into::into).collect(),
        scissor_rects: job.scissor_rects.iter().map(Into::into).collect(),
        render_targets,
        depth_stencil_view,
        indirect: false,
        gs,
        hs,
        ds,
        stream_output: None,
        uavs: Vec::new(),
    })
}

/// What the recorder sends the writer thread.
enum Message {
    /// A draw to add.
    Draw(Box<DrawJob<Bytes>>),
    /// A draw that was not recorded, listed after the draws sent before it (format 1.1's `unrecorded_draws`).
    Unrecorded(Box<UnrecordedDrawEntry>),
    /// A resolve, listed after the draws sent before it (format 1.2's `resolves`).
    Resolve(Box<ResolveRecord<Vec<u8>>>),
}

/// The thread that hashes, compresses and writes a capture's draws as they come, snapshotting the manifest and
/// directory every few draws so that the file opens even if the program dies before the capture ends.
pub struct WriterThread {
    sender: Option<SyncSender<Message>>,
    thread: Option<JoinHandle<()>>,
}

impl WriterThread {
    /// Creates `path` and starts the thread.
    pub fn start(
        path: &Path,
        application: &str,
        deflate_level: u8,
        snapshot_draws: u64,
        finish_delay: Duration,
    ) -> Result<Self, String> {
        let file = File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        let mut writer = CaptureWriter::new(BufWriter::with_capacity(1 << 20, file));
        writer.set_generator(Some(format!("iridia-recorder {}", env!("CARGO_PKG_VERSION"))));
        writer.set_application(Some(application.to_owned()));
        writer.set_deflate_level(deflate_level);
        // A bounded queue: a recorder far ahead of the writer waits rather than holding a frame's data in memory.
        let (sender, receiver) = sync_channel(64);
        let display = path.display().to_string();
        let thread = std::thread::Builder::new()
            .name("iridia-writer".to_owned())
            .spawn(move || run(writer, receiver, snapshot_draws, finish_delay, display))
            .map_err(|e| format!("cannot start the writer thread: {e}"))?;
        Ok(Self {
            sender: Some(sender),
            thread: Some(thread),
        })
    }

    /// Queues a draw.
    pub fn send(&self, job: DrawJob<Bytes>) {
        if let Some(sender) = &self.sender
            && sender.send(Message::Draw(Box::new(job))).is_err()
        {
            log!("the writer thread has stopped; a draw is lost");
        }
    }

    /// Queues a draw that was not recorded, to be listed after the draws queued before it.
    pub fn send_unrecorded(&self, entry: UnrecordedDrawEntry) {
        if let Some(sender) = &self.sender
            && sender.send(Message::Unrecorded(Box::new(entry))).is_err()
        {
            log!("the writer thread has stopped; an unrecorded draw's entry is lost");
        }
    }

    /// Queues a resolve, to be listed after the draws queued before it.
    pub fn send_resolve(&self, record: ResolveRecord<Vec<u8>>) {
        if let Some(sender) = &self.sender
            && sender.send(Message::Resolve(Box::new(record))).is_err()
        {
            log!("the writer thread has stopped; a resolve is lost");
        }
    }

    /// Lets the thread write what is queued and the manifest, without waiting for it: gives the thread, to be
    /// joined where the program can wait (see `recorder::wait_for_writers`).
    pub fn close(mut self) -> Option<JoinHandle<()>> {
        self.sender = None;
        self.thread.take()
    }
}

/// The writer thread's loop.
fn run(mut writer: Writer, receiver: Receiver<Message>, snapshot_draws: u64, finish_delay: Duration, path: String) {
    let mut since_snapshot = 0u64;
    for message in receiver {
        // after a failed write (a full disk) nothing more can be written: the file keeps its last snapshot, the
        // capture ends here, and the draws still queued are dropped with the channel
        if let Some(why) = writer.failed() {
            log!("the capture stops: {why}; {path} holds the draws of its last snapshot");
            return;
        }
        match message {
            Message::Draw(job) => {
                let added =
                    draw_entry(&mut writer, &job).and_then(|entry| writer.add_entry(entry).map_err(|e| e.to_string()));
                if let Err(e) = added {
                    log!("a draw is not written: {e}");
                }
                since_snapshot += 1;
                if since_snapshot >= snapshot_draws {
                    since_snapshot = 0;
                    if let Err(e) = writer.snapshot() {
                        log!("cannot snapshot the capture: {e}");
                    }
                }
            }
            Message::Unrecorded(entry) => writer.add_unrecorded(*entry),
            Message::Resolve(record) => {
                if let Err(e) = writer.add_resolve(&record) {
                    log!("a resolve is not written: {e}");
                }
            }
        }
    }
    if let Some(why) = writer.failed() {
        log!("the capture stops: {why}; {path} holds the draws of its last snapshot");
        return;
    }
    if !finish_delay.is_zero() {
        log!(
            "the writer waits {} ms before finishing (fault_writer_delay_ms)",
            finish_delay.as_millis()
        );
        std::thread::sleep(finish_delay);
    }
    let draws = writer.draw_count();
    match writer.finish() {
        Ok(_) => log!("capture written: {path} ({draws} draws)"),
        Err(e) => log!("cannot finish {path}: {e}"),
    }
}
