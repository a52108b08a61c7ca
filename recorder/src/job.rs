//! A recorded draw on its way to the capture file: [`DrawJob`] holds the draw's state and its data — of type `D`,
//! which is a reference to a pending read while the recorder gathers it and the bytes once read — and the writer
//! thread turns it into a manifest entry, hashing and compressing its blobs ([`WriterThread`]). A dispatch travels
//! the same way as a [`DispatchJob`], placed after the draws and resolves the writer has added, and an event (format
//! 1.5: a marker, clear, copy or update, `crate::event`) as its kind and text, placed after everything before it.

use crate::log::log;
use crate::readback::Bytes;
use iridia::api::draw::{DrawCall, IndexFormat};
use iridia::api::enums::PrimitiveTopology;
use iridia::api::enums::UavDimension;
use iridia::api::fixed_function::{BlendDesc, DepthStencilDesc, InputElementDesc, RasterizerDesc};
use iridia::api::resource::{
    DepthStencilViewDesc, RenderTargetViewDesc, SamplerDesc, ShaderResourceViewDesc, TextureShape,
    UnorderedAccessViewDesc,
};
use iridia::api::viewport::{Scissor, Viewport};
use iridia::capture::CaptureWriter;
use iridia::capture::manifest::{
    BlobRef, CallEntry, ConstantBufferEntry, DepthStencilTargetEntry, DispatchEntry, DrawEntry, F32, IndexBufferEntry,
    RenderTargetEntry, ResourceEntry, SamplerEntry, ShaderResourceEntry, StageEntry, StreamOutputStateEntry,
    StreamOutputTargetEntry, UavEntry, VertexBufferEntry,
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

/// An unordered access view bound to a draw's pixel stage (`OMSetRenderTargetsAndUnorderedAccessViews`, D3D11.3
/// 5.3.9) or to a dispatch (`CSSetUnorderedAccessViews`, 18.5): its resource's whole contents before and after the
/// call, and — for an append or counter view — its hidden counter before and after (4 bytes each, read with
/// `CopyStructureCount`).
pub struct UavJob<D> {
    /// The slot, `u#`.
    pub slot: u32,
    /// The view.
    pub view: UnorderedAccessViewDesc,
    /// The whole resource before the call.
    pub before: ResourceJob<D>,
    /// The whole resource after it (the writer keeps the view's window of it).
    pub after: ResourceJob<D>,
    /// The hidden counter before the call: what the call starts from, written as the entry's `initial_count`.
    pub counter_before: Option<D>,
    /// The hidden counter after the call.
    pub counter_after: Option<D>,
}

/// An indirect call (`DrawInstancedIndirect`, `DrawIndexedInstancedIndirect`, `DispatchIndirect`): its name and
/// the argument buffer's offset, for the entry's call text; the call recorded is the direct one its arguments make.
#[derive(Clone, Copy, Debug)]
pub struct Indirect {
    /// The API call's name.
    pub name: &'static str,
    /// `AlignedByteOffsetForArgs`.
    pub offset: u32,
}

/// One `Dispatch` (format 1.3's dispatch entries, D3D11.3 section 18): the compute stage, its views and the thread
/// groups.
pub struct DispatchJob<D> {
    /// Which context and path.
    pub name: Option<String>,
    /// The thread groups (for `DispatchIndirect`, what its arguments held).
    pub groups: [u32; 3],
    /// Set for `DispatchIndirect`.
    pub indirect: Option<Indirect>,
    /// A `DispatchIndirect`'s argument words, when read with the dispatch (on a deferred context): `groups` are
    /// filled in from them.
    pub arguments: Option<D>,
    /// The compute stage.
    pub cs: StageJob<D>,
    /// The bound views.
    pub uavs: Vec<UavJob<D>>,
}

impl<D> DispatchJob<D> {
    /// The call, as text.
    pub fn api_call(&self) -> String {
        let [x, y, z] = self.groups;
        match self.indirect {
            Some(indirect) => format!("{}(args, {})", indirect.name, indirect.offset),
            None => format!("Dispatch({x}, {y}, {z})"),
        }
    }

    /// The same dispatch with each piece of data mapped through `f`.
    pub fn map<E>(self, f: &mut impl FnMut(D) -> Result<E, String>) -> Result<DispatchJob<E>, String> {
        Ok(DispatchJob {
            name: self.name,
            groups: self.groups,
            indirect: self.indirect,
            arguments: match self.arguments {
                Some(data) => Some(f(data)?),
                None => None,
            },
            cs: self.cs.map(f)?,
            uavs: map_uavs(self.uavs, f)?,
        })
    }
}

/// A resource's data mapped through `f`.
fn map_resource<D, E>(
    resource: ResourceJob<D>,
    f: &mut impl FnMut(D) -> Result<E, String>,
) -> Result<ResourceJob<E>, String> {
    Ok(match resource {
        ResourceJob::Buffer(data) => ResourceJob::Buffer(f(data)?),
        ResourceJob::Texture(shape, subresources) => {
            ResourceJob::Texture(shape, subresources.into_iter().map(&mut *f).collect::<Result<_, _>>()?)
        }
    })
}

/// Views' data mapped through `f`.
fn map_uavs<D, E>(uavs: Vec<UavJob<D>>, f: &mut impl FnMut(D) -> Result<E, String>) -> Result<Vec<UavJob<E>>, String> {
    let mut out = Vec::with_capacity(uavs.len());
    for uav in uavs {
        out.push(UavJob {
            slot: uav.slot,
            view: uav.view,
            before: map_resource(uav.before, f)?,
            after: map_resource(uav.after, f)?,
            counter_before: match uav.counter_before {
                Some(data) => Some(f(data)?),
                None => None,
            },
            counter_after: match uav.counter_after {
                Some(data) => Some(f(data)?),
                None => None,
            },
        });
    }
    Ok(out)
}

/// A draw's stream output (D3D11.3 section 14): the declaration, strides and rasterized stream its program was
/// made with, and each bound buffer.
pub struct StreamOutputJob<D> {
    /// The declaration, strides and rasterized stream (`targets` empty).
    pub state: StreamOutputStateEntry,
    /// (slot, the whole buffer before, the offset the draw's first vertex goes to, the whole buffer after).
    pub targets: Vec<(u32, D, u32, D)>,
}

/// One draw: everything a manifest entry holds.
pub struct DrawJob<D> {
    /// The call (for an indirect draw, the direct call its arguments make).
    pub call: DrawCall,
    /// Set for an indirect draw.
    pub indirect: Option<Indirect>,
    /// An indirect draw's argument words, when read with the draw (on a deferred context): `call` stands for the
    /// call they make until the recorder puts it in its place.
    pub arguments: Option<D>,
    /// Whether the call was `DrawAuto` (`call` is then the `Draw` it amounted to).
    pub auto: bool,
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
    /// The unordered access views bound with the render targets.
    pub uavs: Vec<UavJob<D>>,
    /// Stream output, when the program before the rasterizer was made with a declaration.
    pub stream_output: Option<StreamOutputJob<D>>,
}

impl<D> StageJob<D> {
    fn map<E>(self, f: &mut impl FnMut(D) -> Result<E, String>) -> Result<StageJob<E>, String> {
        let mut constant_buffers = Vec::with_capacity(self.constant_buffers.len());
        for (slot, data, first, count) in self.constant_buffers {
            constant_buffers.push((slot, f(data)?, first, count));
        }
        let mut shader_resources = Vec::with_capacity(self.shader_resources.len());
        for (slot, view, resource) in self.shader_resources {
            shader_resources.push((slot, view, map_resource(resource, f)?));
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
    /// The call, as text: the API's call (an indirect one with its offset).
    pub fn api_call(&self) -> String {
        match self.indirect {
            Some(indirect) => format!("{}(args, {})", indirect.name, indirect.offset),
            None if self.auto => "DrawAuto()".to_owned(),
            None => iridia::capture::api_call_text(self.call),
        }
    }

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
        let stream_output = match self.stream_output {
            Some(so) => {
                let mut targets = Vec::with_capacity(so.targets.len());
                for (slot, before, offset, after) in so.targets {
                    targets.push((slot, f(before)?, offset, f(after)?));
                }
                Some(StreamOutputJob {
                    state: so.state,
                    targets,
                })
            }
            None => None,
        };
        Ok(DrawJob {
            call: self.call,
            indirect: self.indirect,
            arguments: match self.arguments {
                Some(data) => Some(f(data)?),
                None => None,
            },
            auto: self.auto,
            stream_output,
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
            uavs: map_uavs(self.uavs, f)?,
        })
    }
}

/// The capture writer the thread owns.
type Writer = CaptureWriter<BufWriter<File>>;

/// Adds a blob, with the writer's error as text.
fn blob(writer: &mut Writer, data: &Bytes) -> Result<BlobRef, String> {
    writer.add_shared(data).map_err(|e| e.to_string())
}

/// A resource's manifest entry, adding its blobs.
fn resource_entry(writer: &mut Writer, resource: &ResourceJob<Bytes>) -> Result<ResourceEntry, String> {
    Ok(match resource {
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
    })
}

/// A hidden counter's 4 bytes (`CopyStructureCount` writes a UINT, little-endian on every D3D11 platform).
fn counter_value(bytes: &Bytes) -> Result<u32, String> {
    let word: [u8; 4] = bytes
        .get(..4)
        .and_then(|b| b.try_into().ok())
        .ok_or("a hidden counter read gave fewer than 4 bytes")?;
    Ok(u32::from_le_bytes(word))
}

/// The view's window of `resource`'s whole contents (docs/capture-format.md section 5, "A view's window"): a buffer
/// view's elements `first_element..first_element + num_elements`; a texture view's mip `mip_slice` of each slice it
/// sees, slice after slice (5.3.9's views).
fn uav_window(view: &UnorderedAccessViewDesc, resource: &ResourceJob<Bytes>) -> Result<Vec<u8>, String> {
    use iridia::capture::convert::uav_layout;
    let too_short = || "the view's window passes the end of the resource read".to_owned();
    match resource {
        ResourceJob::Buffer(data) => {
            let layout = uav_layout(view, Some(data.len() as u64), None).map_err(|e| e.to_string())?;
            let start = u64::from(view.first_element)
                .checked_mul(layout.element_bytes)
                .ok_or_else(too_short)?;
            let end = start.checked_add(layout.bytes).ok_or_else(too_short)?;
            let range =
                usize::try_from(start).map_err(|e| e.to_string())?..usize::try_from(end).map_err(|e| e.to_string())?;
            data.get(range).map(<[u8]>::to_vec).ok_or_else(too_short)
        }
        ResourceJob::Texture(shape, subresources) => {
            let layout = uav_layout(view, None, Some(shape)).map_err(|e| e.to_string())?;
            let level = view.mip_slice;
            let first = match view.dimension {
                UavDimension::Texture1DArray | UavDimension::Texture2DArray | UavDimension::Texture3D => {
                    view.first_array_slice
                }
                _ => 0,
            };
            let mut window = Vec::new();
            if view.dimension == UavDimension::Texture3D {
                // one subresource a mip, its depth slices one after another
                let mip = subresources.get(level as usize).ok_or_else(too_short)?;
                let plane = layout
                    .bytes
                    .checked_div(u64::from(layout.slices))
                    .ok_or_else(too_short)?;
                let start = u64::from(first).checked_mul(plane).ok_or_else(too_short)?;
                let end = start.checked_add(layout.bytes).ok_or_else(too_short)?;
                let range = usize::try_from(start).map_err(|e| e.to_string())?
                    ..usize::try_from(end).map_err(|e| e.to_string())?;
                window.extend_from_slice(mip.get(range).ok_or_else(too_short)?);
            } else {
                for slice in first..first.saturating_add(layout.slices) {
                    let index = slice
                        .checked_mul(shape.mip_levels)
                        .and_then(|i| i.checked_add(level))
                        .ok_or_else(too_short)?;
                    window.extend_from_slice(subresources.get(index as usize).ok_or_else(too_short)?);
                }
            }
            Ok(window)
        }
    }
}

/// The manifest entries of views, adding their blobs: the resource before, the counter before as the initial count
/// (the value the call started from, which makes the entry self-contained whatever `pUAVInitialCounts` said), the
/// window after and the counter after.
fn uav_entries(writer: &mut Writer, uavs: &[UavJob<Bytes>]) -> Result<Vec<UavEntry>, String> {
    let mut entries = Vec::with_capacity(uavs.len());
    for uav in uavs {
        let window = uav_window(&uav.view, &uav.after)?;
        let after = writer.add_blob(&window).map_err(|e| e.to_string())?;
        entries.push(UavEntry {
            slot: uav.slot,
            view: (&uav.view).into(),
            resource: resource_entry(writer, &uav.before)?,
            initial_count: uav.counter_before.as_ref().map(counter_value).transpose()?,
            after: Some(after),
            counter_after: uav.counter_after.as_ref().map(counter_value).transpose()?,
        });
    }
    Ok(entries)
}

/// A dispatch's manifest entry, adding its blobs, placed after the draws and resolves the writer holds.
fn dispatch_entry(writer: &mut Writer, job: &DispatchJob<Bytes>) -> Result<DispatchEntry, String> {
    let cs = stage_entry(writer, &job.cs)?;
    let uavs = uav_entries(writer, &job.uavs)?;
    Ok(DispatchEntry {
        before_draw: writer.draw_count() as u64,
        before_resolve: writer.resolve_count() as u64,
        name: job.name.clone(),
        api_call: Some(job.api_call()),
        indirect: job.indirect.is_some(),
        groups: job.groups,
        cs,
        uavs,
    })
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
        shader_resources.push(ShaderResourceEntry {
            slot: *slot,
            view: view.into(),
            resource: resource_entry(writer, resource)?,
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
    let uavs = uav_entries(writer, &job.uavs)?;
    let stream_output = match &job.stream_output {
        Some(so) => {
            let mut targets = Vec::with_capacity(so.targets.len());
            for (slot, before, offset, after) in &so.targets {
                targets.push(StreamOutputTargetEntry {
                    slot: *slot,
                    data: blob(writer, before)?,
                    offset: *offset,
                    after: Some(blob(writer, after)?),
                });
            }
            Some(StreamOutputStateEntry {
                targets,
                ..so.state.clone()
            })
        }
        None => None,
    };
    let call = match job.call {
        DrawCall::Draw { vertex_count, .. } if job.auto => CallEntry::DrawAuto { vertex_count },
        call => call.into(),
    };
    Ok(DrawEntry {
        name: job.name.clone(),
        api_call: Some(job.api_call()),
        call,
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
        indirect: job.indirect.is_some(),
        gs,
        hs,
        ds,
        stream_output,
        uavs,
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
    /// A dispatch, listed after the draws and resolves sent before it (format 1.3's `dispatches`).
    Dispatch(Box<DispatchJob<Bytes>>),
    /// An event (format 1.5's `events`: its kind and text), placed after the draws, resolves and dispatches sent
    /// before it.
    Event(&'static str, Option<String>),
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

    /// Queues a dispatch, to be listed after the draws and resolves queued before it.
    pub fn send_dispatch(&self, job: DispatchJob<Bytes>) {
        if let Some(sender) = &self.sender
            && sender.send(Message::Dispatch(Box::new(job))).is_err()
        {
            log!("the writer thread has stopped; a dispatch is lost");
        }
    }

    /// Queues an event of kind `kind` (`begin`, `clear`, ...) with its text, to be placed after the draws,
    /// resolves and dispatches queued before it.
    pub fn send_event(&self, kind: &'static str, text: Option<String>) {
        if let Some(sender) = &self.sender
            && sender.send(Message::Event(kind, text)).is_err()
        {
            log!("the writer thread has stopped; an event is lost");
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
            Message::Dispatch(job) => {
                let added = dispatch_entry(&mut writer, &job)
                    .and_then(|entry| writer.add_dispatch_entry(entry).map_err(|e| e.to_string()));
                if let Err(e) = added {
                    log!("a dispatch is not written: {e}");
                }
            }
            Message::Event(kind, text) => writer.add_event(kind, text.as_deref()),
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
