//! Writing a capture: blobs into the archive as draws come, deduplicated by hash; the manifest at the end.

use super::append::{AppendZip, PreparedEntry};
use super::capture_error;
use super::convert::{DrawCheck, Surface, depth_stencil_layout, render_target_layout, sampler_entry, surface_bytes};
use super::manifest::{
    BlobId, BlobRef, ConstantBufferEntry, DepthStencilTargetEntry, DispatchEntry, DrawEntry, EventEntry, F32,
    FORMAT_NAME, IndexBufferEntry, Manifest, RenderTargetEntry, ResolveDestinationEntry, ResolveEntry,
    ResolveSourceEntry, ResourceEntry, ShaderResourceEntry, StageEntry, StreamOutputDeclarationEntry,
    StreamOutputStateEntry, StreamOutputTargetEntry, UavEntry, UnrecordedDrawEntry, VERSION_MAJOR, VERSION_MINOR,
    VertexBufferEntry,
};
use super::reader::{CapturedDraw, TargetSlot};
use super::{MANIFEST_NAME, MAX_BLOB_BYTES};
use crate::Result;
use crate::api::dispatch::{DispatchState, UnorderedAccessViewBinding};
use crate::api::draw::{DrawState, StageBindings};
use crate::api::resource::{Resource, Texture, TextureShape};
use crate::dispatch::UavContents;
use crate::format::Format;
use std::collections::HashMap;
use std::io::{Cursor, Write};
use std::sync::{Arc, Weak};

/// One draw to write: its state, whose target views hold the targets' contents before the draw, and the contents
/// the GPU left after it.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawRecord {
    /// The draw's state. Each bound target's texture holds its contents before the draw; the surface its view
    /// writes is what the capture records.
    pub state: DrawState,
    /// A marker or debug name.
    pub name: Option<String>,
    /// The API call it came from, as text (see [`super::api_call_text`]).
    pub api_call: Option<String>,
    /// The written surface of each render target after the draw, by slot (texels in the view's format, rows
    /// packed, top row first); `None` (or a slot past the list) where it was not recorded.
    pub render_targets_after: Vec<Option<Arc<[u8]>>>,
    /// The depth-stencil view's written surface after the draw, likewise.
    pub depth_stencil_after: Option<Arc<[u8]>>,
    /// Per `u#` slot, the pixel stage view's window after the draw and its counter (version 1.4), as for a
    /// dispatch; `None` (or a slot past the list) where it was not recorded.
    pub uavs_after: Vec<Option<UavContents>>,
    /// Per stream-output slot, the whole buffer after the draw (version 1.4); `None` where not recorded.
    pub stream_output_after: [Option<Arc<[u8]>>; 4],
    /// Whether the call was indirect (version 1.4): the state's call is what its arguments amounted to.
    pub indirect: bool,
}

impl DrawRecord {
    /// A record of `state` with nothing recorded after it, no name and no call text.
    pub fn new(state: DrawState) -> Self {
        Self {
            state,
            name: None,
            api_call: None,
            render_targets_after: Vec::new(),
            depth_stencil_after: None,
            uavs_after: Vec::new(),
            stream_output_after: Default::default(),
            indirect: false,
        }
    }
}

impl From<CapturedDraw> for DrawRecord {
    /// The record that writes a read draw again (its targets as the one-surface textures it was read into).
    fn from(draw: CapturedDraw) -> Self {
        let mut record = Self {
            state: draw.state,
            name: draw.name,
            api_call: draw.api_call,
            render_targets_after: Vec::new(),
            depth_stencil_after: None,
            uavs_after: draw
                .uavs_after
                .iter()
                .map(|recorded| {
                    let recorded = recorded.as_ref()?;
                    Some(UavContents {
                        bytes: recorded.bytes.as_ref()?.to_vec(),
                        counter: recorded.counter,
                    })
                })
                .collect(),
            stream_output_after: Default::default(),
            indirect: false,
        };
        for buffer in draw.stream_output {
            if let Some(place) = usize::try_from(buffer.slot)
                .ok()
                .and_then(|slot| record.stream_output_after.get_mut(slot))
            {
                *place = buffer.after;
            }
        }
        for target in draw.targets {
            match target.target {
                TargetSlot::RenderTarget(slot) => {
                    let slot = usize::try_from(slot).unwrap_or(usize::MAX);
                    if slot < crate::api::limits::RENDER_TARGET_SLOTS {
                        if record.render_targets_after.len() <= slot {
                            record.render_targets_after.resize(slot.saturating_add(1), None);
                        }
                        if let Some(place) = record.render_targets_after.get_mut(slot) {
                            *place = target.after;
                        }
                    }
                }
                TargetSlot::DepthStencil => record.depth_stencil_after = target.after,
            }
        }
        record
    }
}

/// One `ResolveSubresource` to write (version 1.2): the resolve format, the multisampled source subresource with
/// every sample, and the destination subresource before and after, each in the resolve format. `B` holds the bytes:
/// `[u8]`, or a recorder's `Vec<u8>` (shared without copying).
#[derive(Clone, Debug, PartialEq)]
pub struct ResolveRecord<B: ?Sized = [u8]> {
    /// The API call, as text.
    pub api_call: Option<String>,
    /// The `Format` argument.
    pub format: Format,
    /// The shape of the whole source resource.
    pub source: TextureShape,
    /// The source subresource: `mip + slice * mip_levels`.
    pub source_subresource: u32,
    /// Its contents: `sample_count` planes of the mip's texels, sample 0's first.
    pub source_data: Arc<B>,
    /// The shape of the whole destination resource.
    pub destination: TextureShape,
    /// The destination subresource.
    pub destination_subresource: u32,
    /// Its contents before the resolve.
    pub destination_before: Arc<B>,
    /// Its contents after the resolve, as the GPU left them; `None` when not recorded.
    pub destination_after: Option<Arc<B>>,
}

/// One `Dispatch` to write (version 1.3): its state, whose views' resources hold their contents before it, and
/// what each view's window (and counter) held after it.
#[derive(Clone, Debug, PartialEq)]
pub struct DispatchRecord {
    /// The dispatch's state.
    pub state: DispatchState,
    /// A marker or debug name.
    pub name: Option<String>,
    /// The API call, as text (`Dispatch(4, 1, 1)`).
    pub api_call: Option<String>,
    /// Whether the call was `DispatchIndirect` (version 1.4): the groups are what its arguments held.
    pub indirect: bool,
    /// Per `u#` slot, the view's window after the dispatch as the GPU left it (the layout
    /// [`crate::dispatch::run_dispatch`] gives, docs/capture-format.md section 5) and its counter; `None` (or a
    /// slot past the list) where it was not recorded.
    pub after: Vec<Option<UavContents>>,
}

impl DispatchRecord {
    /// A record of `state` with nothing recorded after it.
    pub fn new(state: DispatchState) -> Self {
        Self {
            state,
            name: None,
            api_call: None,
            indirect: false,
            after: Vec::new(),
        }
    }
}

/// A shared buffer's address and length.
type BufferKey = (usize, usize);

/// Whether a shared buffer seen before is still alive: it holds a weak reference, which keeps the buffer's `Arc`
/// allocation (not its bytes, for an `Arc<Vec<u8>>`) from being reused, so a live buffer at a known address is the
/// one seen, and a freed one is told apart.
struct StillShared(Box<dyn Fn() -> bool + Send + Sync>);

/// Writes a capture to `W`: each [`add_draw`](Self::add_draw) writes the draw's new blobs into the archive at once
/// and keeps only its manifest entry; [`finish`](Self::finish) writes the manifest and the ZIP directory. A recorder
/// appends draws one by one, holding the manifest's entries (a few kilobytes a draw) and nothing else, and calls
/// [`snapshot`](Self::snapshot) now and then: the archive is only ever appended to, and after a snapshot the
/// bytes written so far are a complete capture of the draws added so far, whatever happens to the writer later
/// (docs/capture-format.md, "Captures written as they are recorded").
pub struct CaptureWriter<W: Write> {
    zip: AppendZip<W>,
    generator: Option<String>,
    application: Option<String>,
    draws: Vec<DrawEntry>,
    /// Draws the caller could not record, in the frame's order.
    unrecorded: Vec<UnrecordedDrawEntry>,
    /// The frame's resolves, in its order.
    resolves: Vec<ResolveEntry>,
    /// The frame's dispatches, in its order.
    dispatches: Vec<DispatchEntry>,
    /// The frame's other events (markers, clears, copies, updates), in its order.
    events: Vec<EventEntry>,
    /// Blobs in the archive, with their sizes.
    written: HashMap<BlobId, u64>,
    /// Shared buffers already hashed, by address and length, so that a buffer bound to many draws is hashed once.
    hashed: HashMap<BufferKey, (StillShared, BlobId)>,
    /// Deflate level 1 to 9, or 0 to store blobs uncompressed.
    level: u8,
}

impl CaptureWriter<Cursor<Vec<u8>>> {
    /// A writer into memory; [`finish_to_vec`](Self::finish_to_vec) gives the archive's bytes.
    pub fn in_memory() -> Self {
        Self::new(Cursor::new(Vec::new()))
    }

    /// Finishes the archive and gives its bytes.
    pub fn finish_to_vec(self) -> Result<Vec<u8>> {
        Ok(self.finish()?.into_inner())
    }
}

impl<W: Write> CaptureWriter<W> {
    /// A writer into `out`.
    pub fn new(out: W) -> Self {
        Self {
            zip: AppendZip::new(out),
            generator: Some(format!("iridia {}", env!("CARGO_PKG_VERSION"))),
            application: None,
            draws: Vec::new(),
            unrecorded: Vec::new(),
            resolves: Vec::new(),
            dispatches: Vec::new(),
            events: Vec::new(),
            written: HashMap::new(),
            hashed: HashMap::new(),
            level: 6,
        }
    }

    /// Sets the manifest's `generator` (by default `iridia <version>`).
    pub fn set_generator(&mut self, generator: Option<String>) {
        self.generator = generator;
    }

    /// Sets the manifest's `application`: the program whose frame this is.
    pub fn set_application(&mut self, application: Option<String>) {
        self.application = application;
    }

    /// Sets the deflate level of the blobs written from now on: 1 (fastest) to 9 (smallest), 0 to store them.
    pub fn set_deflate_level(&mut self, level: u8) {
        self.level = level.min(9);
    }

    /// Why writing stopped, once a write to the output has failed (a full disk): from then on nothing more is
    /// written and the output holds the capture as of its last [`snapshot`](Self::snapshot).
    pub fn failed(&self) -> Option<&str> {
        self.zip.failed()
    }

    /// The number of draws added.
    pub fn draw_count(&self) -> usize {
        self.draws.len()
    }

    /// Adds `bytes` as a blob (written once per distinct content) and gives its reference.
    pub fn add_blob(&mut self, bytes: &[u8]) -> Result<BlobRef> {
        let id = BlobId::of(bytes);
        self.add_hashed(id, bytes)
    }

    /// Adds a blob whose hash is known.
    fn add_hashed(&mut self, id: BlobId, bytes: &[u8]) -> Result<BlobRef> {
        let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        if size > MAX_BLOB_BYTES {
            return Err(capture_error(format!(
                "a blob of {size} bytes, more than the {MAX_BLOB_BYTES} a blob may have"
            )));
        }
        if !self.written.contains_key(&id) {
            let name = id.entry_name();
            PreparedEntry::new(bytes, self.level)
                .and_then(|entry| self.zip.add(&name, &entry))
                .map_err(|e| capture_error(format!("cannot write the blob: {e}")).at(name))?;
            self.written.insert(id, size);
        }
        Ok(BlobRef { sha256: id, size })
    }

    /// Adds a shared buffer as a blob, hashing it only the first time this buffer (this allocation, while it
    /// lives) is seen: what a recorder uses for buffers and textures bound to many draws. The buffer is an
    /// `Arc<[u8]>` or anything else that holds bytes (a recorder's `Arc<Vec<u8>>`, shared without copying).
    pub fn add_shared<B>(&mut self, shared: &Arc<B>) -> Result<BlobRef>
    where
        B: AsRef<[u8]> + ?Sized + Send + Sync + 'static,
    {
        let bytes = (**shared).as_ref();
        let key = (Arc::as_ptr(shared).cast::<u8>().addr(), bytes.len());
        let known = self
            .hashed
            .get(&key)
            .filter(|(alive, _)| (alive.0)())
            .map(|(_, id)| *id);
        let id = match known {
            Some(id) => id,
            None => {
                let id = BlobId::of(bytes);
                let weak: Weak<B> = Arc::downgrade(shared);
                self.hashed
                    .insert(key, (StillShared(Box::new(move || weak.strong_count() > 0)), id));
                id
            }
        };
        self.add_hashed(id, bytes)
    }

    /// A stage's entry.
    fn stage_entry(&mut self, program: Option<&Arc<[u8]>>, bindings: &StageBindings) -> Result<StageEntry> {
        let dxbc = match program {
            Some(program) => Some(self.add_shared(program)?),
            None => None,
        };
        let mut constant_buffers = Vec::new();
        for (slot, buffer) in slots(&bindings.constant_buffers) {
            constant_buffers.push(ConstantBufferEntry {
                slot,
                data: self.add_shared(&buffer.data)?,
                first_constant: buffer.first_constant,
                num_constants: buffer.num_constants,
            });
        }
        let mut shader_resources = Vec::new();
        for (slot, view) in slots(&bindings.shader_resources) {
            let resource = self.resource_entry(&view.resource)?;
            shader_resources.push(ShaderResourceEntry {
                slot,
                view: (&view.desc).into(),
                resource,
            });
        }
        let samplers = slots(&bindings.samplers)
            .map(|(slot, desc)| sampler_entry(slot, desc))
            .collect();
        Ok(StageEntry {
            dxbc,
            constant_buffers,
            shader_resources,
            samplers,
        })
    }

    /// A resource's entry: the whole buffer, or every subresource of a texture.
    fn resource_entry(&mut self, resource: &Resource) -> Result<ResourceEntry> {
        Ok(match resource {
            Resource::Buffer(data) => ResourceEntry::Buffer {
                data: self.add_shared(data)?,
            },
            Resource::Texture(texture) => {
                let mut subresources = Vec::with_capacity(texture.subresources.len());
                for data in &texture.subresources {
                    subresources.push(self.add_shared(data)?);
                }
                ResourceEntry::Texture {
                    shape: (&texture.shape).into(),
                    subresources,
                }
            }
        })
    }

    /// The blob of a target surface's contents: the subresource itself when the surface is a whole one (hashed
    /// once however many draws share it), else a copy of the depth slice.
    fn surface_blob(&mut self, texture: &Texture, surface: Surface) -> Result<BlobRef> {
        let whole = (texture.shape.dimension != crate::api::enums::ResourceDimension::Texture3D)
            .then(|| {
                let index = surface
                    .slice
                    .checked_mul(texture.shape.mip_levels)?
                    .checked_add(surface.level)?;
                texture.subresources.get(usize::try_from(index).ok()?).cloned()
            })
            .flatten();
        match whole {
            Some(data) => self.add_shared(&data),
            None => {
                let bytes = surface_bytes(texture, surface)?.to_vec();
                self.add_blob(&bytes)
            }
        }
    }

    /// The manifest entry of `record`, writing its new blobs.
    fn entry(&mut self, index: usize, record: &DrawRecord) -> Result<DrawEntry> {
        let state = &record.state;
        let at = |path: &str| format!("draw {index} {path}");
        state.check_limits().map_err(|e| capture_error(e.detail).at(at("")))?;
        let vs = self.stage_entry(Some(&state.vertex_shader), &state.vs)?;
        let gs = match &state.geometry_shader {
            Some(program) => Some(self.stage_entry(Some(program), &state.gs)?),
            None => None,
        };
        let hs = match &state.hull_shader {
            Some(program) => Some(self.stage_entry(Some(program), &state.hs)?),
            None => None,
        };
        let ds = match &state.domain_shader {
            Some(program) => Some(self.stage_entry(Some(program), &state.ds)?),
            None => None,
        };
        let ps = self.stage_entry(state.pixel_shader.as_ref(), &state.ps)?;
        if state.draw_auto.is_some() {
            return Err(capture_error(
                "a DrawAuto not resolved into its vertex count: a capture records the count it amounted to",
            )
            .at(at("call")));
        }
        let stream_output = match &state.stream_output {
            Some(so) => {
                let mut targets = Vec::new();
                for (slot, target) in so.targets.iter().enumerate() {
                    let Some(target) = target else { continue };
                    let after = match record.stream_output_after.get(slot).and_then(Option::as_ref) {
                        Some(after) => Some(self.add_shared(after)?),
                        None => None,
                    };
                    targets.push(StreamOutputTargetEntry {
                        slot: u32::try_from(slot).unwrap_or(u32::MAX),
                        data: self.add_shared(&target.buffer)?,
                        offset: target.offset,
                        after,
                    });
                }
                Some(StreamOutputStateEntry {
                    declaration: so
                        .entries
                        .iter()
                        .map(|e| StreamOutputDeclarationEntry {
                            stream: e.stream,
                            semantic_name: e.semantic.as_ref().map(|(name, _)| name.clone()),
                            semantic_index: e.semantic.as_ref().map_or(0, |(_, index)| *index),
                            start_component: e.start_component,
                            component_count: e.component_count,
                            output_slot: e.slot,
                        })
                        .collect(),
                    strides: so.strides.to_vec(),
                    rasterized_stream: so.rasterized_stream.unwrap_or(super::convert::NO_RASTERIZED_STREAM),
                    targets,
                })
            }
            None => None,
        };
        let uavs = self.uav_entries(&state.uavs, &record.uavs_after, &format!("draw {index}"))?;
        let mut vertex_buffers = Vec::new();
        for (slot, buffer) in slots(&state.vertex_buffers) {
            vertex_buffers.push(VertexBufferEntry {
                slot,
                data: self.add_shared(&buffer.data)?,
                stride: buffer.stride,
                offset: buffer.offset,
            });
        }
        let index_buffer = match &state.index_buffer {
            Some(buffer) => Some(IndexBufferEntry {
                data: self.add_shared(&buffer.data)?,
                format: buffer.format,
                offset: buffer.offset,
            }),
            None => None,
        };
        let mut render_targets = Vec::new();
        for (slot, view) in slots(&state.render_targets) {
            let path = format!("render target slot {slot}");
            let texture = view.texture().ok_or_else(|| {
                capture_error("the render target is a buffer; format 1.0 records texture targets").at(at(&path))
            })?;
            let layout =
                render_target_layout(&texture.shape, &view.desc).map_err(|e| capture_error(e.detail).at(at(&path)))?;
            let before = self
                .surface_blob(texture, Surface::of_render_target(&view.desc))
                .map_err(|e| capture_error(e.detail).at(at(&path)))?;
            let after = record
                .render_targets_after
                .get(usize::try_from(slot).unwrap_or(usize::MAX))
                .and_then(Option::as_ref);
            let after = match after {
                Some(data) => Some(self.after_blob(data, layout.bytes, &at(&path))?),
                None => None,
            };
            render_targets.push(RenderTargetEntry {
                slot,
                view: (&view.desc).into(),
                resource: (&texture.shape).into(),
                before,
                after,
            });
        }
        let depth_stencil_view = match &state.depth_stencil_view {
            Some(view) => {
                let path = at("depth-stencil view");
                let texture = view
                    .texture()
                    .ok_or_else(|| capture_error("the depth-stencil view's resource is a buffer").at(path.clone()))?;
                let layout = depth_stencil_layout(&texture.shape, &view.desc)
                    .map_err(|e| capture_error(e.detail).at(path.clone()))?;
                let before = self
                    .surface_blob(texture, Surface::of_depth_stencil(&view.desc))
                    .map_err(|e| capture_error(e.detail).at(path.clone()))?;
                let after = match &record.depth_stencil_after {
                    Some(data) => Some(self.after_blob(data, layout.bytes, &path)?),
                    None => None,
                };
                Some(DepthStencilTargetEntry {
                    view: (&view.desc).into(),
                    resource: (&texture.shape).into(),
                    before,
                    after,
                })
            }
            None => None,
        };
        Ok(DrawEntry {
            name: record.name.clone(),
            api_call: record.api_call.clone(),
            call: state.call.into(),
            topology: state.topology,
            input_layout: state.input_layout.iter().map(Into::into).collect(),
            vertex_buffers,
            index_buffer,
            vs,
            ps,
            rasterizer: (&state.rasterizer).into(),
            depth_stencil: (&state.depth_stencil).into(),
            stencil_ref: state.stencil_ref,
            blend: (&state.blend).into(),
            blend_factor: state.blend_factor.map(F32),
            sample_mask: state.sample_mask,
            viewports: state.viewports.iter().map(Into::into).collect(),
            scissor_rects: state.scissor_rects.iter().map(Into::into).collect(),
            render_targets,
            depth_stencil_view,
            indirect: record.indirect,
            gs,
            hs,
            ds,
            stream_output,
            uavs,
        })
    }

    /// The entries of bound views (a dispatch's or a draw's pixel stage's), each with its whole resource and what
    /// `after` holds for its slot.
    fn uav_entries(
        &mut self,
        bindings: &[Option<UnorderedAccessViewBinding>],
        after: &[Option<UavContents>],
        at: &str,
    ) -> Result<Vec<UavEntry>> {
        let mut uavs = Vec::new();
        for (slot, binding) in slots(bindings) {
            let place = |e: crate::Error| capture_error(e.detail).at(format!("{at} u{slot}"));
            let resource = self.resource_entry(&binding.resource).map_err(place)?;
            let after = after
                .get(usize::try_from(slot).unwrap_or(usize::MAX))
                .and_then(Option::as_ref);
            let (after, counter_after) = match after {
                Some(contents) => (Some(self.add_blob(&contents.bytes).map_err(place)?), contents.counter),
                None => (None, None),
            };
            uavs.push(UavEntry {
                slot,
                view: (&binding.desc).into(),
                resource,
                initial_count: binding.initial_count,
                after,
                counter_after,
            });
        }
        Ok(uavs)
    }

    /// The blob of a target's contents after the draw, which must be the surface's size.
    fn after_blob(&mut self, data: &Arc<[u8]>, bytes: u64, at: &str) -> Result<BlobRef> {
        if u64::try_from(data.len()).ok() != Some(bytes) {
            return Err(capture_error(format!(
                "the contents after the draw are {} bytes where the surface takes {bytes}",
                data.len()
            ))
            .at(at));
        }
        self.add_shared(data)
    }

    /// Adds a draw: writes the blobs it needs that the archive does not hold yet and keeps its manifest entry.
    /// Gives the draw's index. The entry is checked as a reader checks it, so what is written reads back.
    pub fn add_draw(&mut self, record: &DrawRecord) -> Result<usize> {
        let index = self.draws.len();
        let entry = self.entry(index, record)?;
        self.add_entry(entry)
    }

    /// Adds a draw given as a manifest entry whose blobs were added with [`add_blob`](Self::add_blob) (for a
    /// recorder that builds entries itself). The entry is checked as a reader checks it.
    pub fn add_entry(&mut self, entry: DrawEntry) -> Result<usize> {
        let index = self.draws.len();
        let blob_size = added_size(&self.written);
        DrawCheck {
            item: "draw",
            index,
            blob_size: &blob_size,
        }
        .draw(&entry)?;
        self.draws.push(entry);
        Ok(index)
    }

    /// Lists a draw of the frame that could not be recorded, after the draws added so far (its `before_draw` is set
    /// to their count), with the reason: a reader then knows the capture is not the whole frame (version 1.1).
    pub fn add_unrecorded(&mut self, mut entry: UnrecordedDrawEntry) {
        entry.before_draw = u64::try_from(self.draws.len()).unwrap_or(u64::MAX);
        self.unrecorded.push(entry);
    }

    /// Adds a resolve after the draws added so far (its `before_draw` is their count; version 1.2): writes its
    /// blobs and keeps its entry, checked as a reader checks it. Gives its index in the capture's `resolves`.
    pub fn add_resolve<B>(&mut self, record: &ResolveRecord<B>) -> Result<usize>
    where
        B: AsRef<[u8]> + ?Sized + Send + Sync + 'static,
    {
        let index = self.resolves.len();
        let at = |path: &str| format!("resolve {index} {path}");
        let data = self
            .add_shared(&record.source_data)
            .map_err(|e| capture_error(e.detail).at(at("source data")))?;
        let before = self
            .add_shared(&record.destination_before)
            .map_err(|e| capture_error(e.detail).at(at("destination before")))?;
        let after = match &record.destination_after {
            Some(bytes) => Some(
                self.add_shared(bytes)
                    .map_err(|e| capture_error(e.detail).at(at("destination after")))?,
            ),
            None => None,
        };
        let entry = ResolveEntry {
            before_draw: u64::try_from(self.draws.len()).unwrap_or(u64::MAX),
            api_call: record.api_call.clone(),
            format: record.format,
            source: ResolveSourceEntry {
                resource: (&record.source).into(),
                subresource: record.source_subresource,
                data,
            },
            destination: ResolveDestinationEntry {
                resource: (&record.destination).into(),
                subresource: record.destination_subresource,
                before,
                after,
            },
        };
        self.add_resolve_entry(entry)
    }

    /// Adds a resolve given as a manifest entry whose blobs were added with [`add_blob`](Self::add_blob), its
    /// `before_draw` as given (at most the draws added so far, and not before the previous resolve's). The entry is
    /// checked as a reader checks it.
    pub fn add_resolve_entry(&mut self, entry: ResolveEntry) -> Result<usize> {
        let index = self.resolves.len();
        let blob_size = added_size(&self.written);
        let earliest = self.resolves.last().map_or(0, |r| r.before_draw);
        DrawCheck {
            item: "resolve",
            index,
            blob_size: &blob_size,
        }
        .resolve(&entry, self.draws.len(), earliest)?;
        self.resolves.push(entry);
        Ok(index)
    }

    /// Adds a dispatch after the draws and resolves added so far (version 1.3): writes the blobs it needs (its
    /// program, bindings, each view's whole resource before it and window after it) and keeps its entry, checked as a
    /// reader checks it. Gives its index in the capture's `dispatches`.
    pub fn add_dispatch(&mut self, record: &DispatchRecord) -> Result<usize> {
        let index = self.dispatches.len();
        let at = |path: &str| format!("dispatch {index} {path}");
        let state = &record.state;
        let cs = self
            .stage_entry(Some(&state.compute_shader), &state.bindings)
            .map_err(|e| capture_error(e.detail).at(at("cs")))?;
        let uavs = self.uav_entries(&state.uavs, &record.after, &format!("dispatch {index}"))?;
        let entry = DispatchEntry {
            before_draw: u64::try_from(self.draws.len()).unwrap_or(u64::MAX),
            before_resolve: u64::try_from(self.resolves.len()).unwrap_or(u64::MAX),
            name: record.name.clone(),
            api_call: record.api_call.clone(),
            indirect: record.indirect,
            groups: state.groups,
            cs,
            uavs,
        };
        self.add_dispatch_entry(entry)
    }

    /// Adds a dispatch given as a manifest entry whose blobs were added with [`add_blob`](Self::add_blob), its
    /// `before_draw` and `before_resolve` as given (at most the draws and resolves added so far, not before the
    /// previous dispatch's). The entry is checked as a reader checks it.
    pub fn add_dispatch_entry(&mut self, entry: DispatchEntry) -> Result<usize> {
        let index = self.dispatches.len();
        let blob_size = added_size(&self.written);
        let earliest = self
            .dispatches
            .last()
            .map_or((0, 0), |d| (d.before_draw, d.before_resolve));
        DrawCheck {
            item: "dispatch",
            index,
            blob_size: &blob_size,
        }
        .dispatch(&entry, self.draws.len(), &self.resolves, earliest)?;
        self.dispatches.push(entry);
        Ok(index)
    }

    /// Adds an event of the frame after the draws, resolves and dispatches added so far (version 1.5): `kind` is
    /// `begin`, `end`, `marker`, `clear`, `copy`, `update` or `generate_mips` (docs/capture-format.md), `name` the
    /// marker's or the call's text, cut to [`super::outline::MAX_NAME_CHARS`] characters. Past
    /// [`super::outline::MAX_EVENTS`] events, the rest are dropped (the capture's events would not check out).
    pub fn add_event(&mut self, kind: &str, name: Option<&str>) {
        if self.events.len() >= super::outline::MAX_EVENTS {
            return;
        }
        let count = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
        self.events.push(EventEntry {
            kind: kind.to_owned(),
            name: name.map(|n| n.chars().take(super::outline::MAX_NAME_CHARS).collect()),
            before_draw: count(self.draws.len()),
            before_resolve: count(self.resolves.len()),
            before_dispatch: count(self.dispatches.len()),
        });
    }

    /// The dispatches added so far.
    pub fn dispatch_count(&self) -> usize {
        self.dispatches.len()
    }

    /// The resolves added so far.
    pub fn resolve_count(&self) -> usize {
        self.resolves.len()
    }

    /// The unrecorded draws listed so far.
    pub fn unrecorded_count(&self) -> usize {
        self.unrecorded.len()
    }

    /// Writes the manifest of the draws added so far and a ZIP directory after them: from then on the output holds
    /// a complete capture of those draws, even if nothing more is ever written. Later blobs and snapshots are
    /// appended after it.
    pub fn snapshot(&mut self) -> Result<()> {
        let manifest = Manifest {
            format: FORMAT_NAME.to_owned(),
            version: format!("{VERSION_MAJOR}.{VERSION_MINOR}"),
            generator: self.generator.clone(),
            application: self.application.clone(),
            draws: std::mem::take(&mut self.draws),
            unrecorded_draws: self.unrecorded.clone(),
            resolves: self.resolves.clone(),
            dispatches: self.dispatches.clone(),
            events: self.events.clone(),
        };
        let text = serde_json::to_vec_pretty(&manifest);
        self.draws = manifest.draws;
        let text = text.map_err(|e| capture_error(format!("cannot write the manifest: {e}")).at(MANIFEST_NAME))?;
        PreparedEntry::new(&text, self.level.max(1))
            .and_then(|entry| self.zip.snapshot(MANIFEST_NAME, &entry))
            .map_err(|e| capture_error(format!("cannot write the archive: {e}")).at(MANIFEST_NAME))
    }

    /// The bytes written to the output so far.
    #[cfg(test)]
    pub(crate) fn zip_len_for_tests(&self) -> u64 {
        self.zip.position()
    }

    /// The output, without finishing the archive.
    #[cfg(test)]
    pub(crate) fn into_output_for_tests(self) -> W {
        self.zip.into_inner()
    }

    /// Writes the manifest and the ZIP directory, and gives back the output.
    pub fn finish(mut self) -> Result<W> {
        self.snapshot()?;
        Ok(self.zip.into_inner())
    }
}

/// The bound slots of a slot list, with their numbers.
fn slots<T>(list: &[Option<T>]) -> impl Iterator<Item = (u32, &T)> {
    list.iter()
        .enumerate()
        .filter_map(|(slot, value)| Some((u32::try_from(slot).ok()?, value.as_ref()?)))
}

/// Writes `draws` as a capture into memory: the builder form for tests and tools.
pub fn write_capture(draws: &[DrawRecord], application: Option<String>) -> Result<Vec<u8>> {
    let mut writer = CaptureWriter::in_memory();
    writer.set_application(application);
    for draw in draws {
        writer.add_draw(draw)?;
    }
    writer.finish_to_vec()
}

/// The size of a blob the writer has added, for the reader's checks of an entry; an error for one it has not.
fn added_size(written: &HashMap<BlobId, u64>) -> impl Fn(&BlobId) -> std::result::Result<u64, String> + '_ {
    |id: &BlobId| {
        written
            .get(id)
            .copied()
            .ok_or_else(|| format!("blob {}… was not added to the writer", id.short()))
    }
}
