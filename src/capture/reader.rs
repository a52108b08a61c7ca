//! Reading a capture: the directory and manifest at open, one draw's blobs on demand.

use super::archive::{Archive, MANIFEST_NAME};
use super::convert::{
    DrawCheck, ResolveLayout, SurfaceLayout, UavLayout, depth_stencil_layout, render_target_layout, surface_texture,
    uav_layout,
};
use super::manifest::{
    BlobId, BlobRef, DispatchEntry, DrawEntry, FORMAT_NAME, Manifest, ManifestHeader, ResolveEntry, ResourceEntry,
    StageEntry, UavEntry, VERSION_MAJOR, locate_dispatch_error, locate_draw_error, locate_resolve_error,
};
use super::{DEFAULT_CACHE_BYTES, capture_error};
use crate::api::dispatch::{DispatchState, UnorderedAccessViewBinding, UnorderedAccessViewDesc};
use crate::api::draw::{
    ConstantBufferBinding, DepthStencilView, DrawCall, DrawState, IndexBufferBinding, RenderTargetView, StageBindings,
    StreamOutputEntry, StreamOutputState, StreamOutputTarget, VertexBufferBinding, bind_slot,
};
use crate::api::enums::PrimitiveTopology;
use crate::api::limits::{
    CONSTANT_BUFFER_SLOTS, RENDER_TARGET_SLOTS, SAMPLER_SLOTS, SHADER_RESOURCE_SLOTS, UAV_SLOTS, VERTEX_BUFFER_SLOTS,
};
use crate::api::resource::{
    DepthStencilViewDesc, RenderTargetViewDesc, Resource, SamplerDesc, ShaderResourceView, Texture, TextureShape,
};
use crate::format::Format;
use crate::{Error, Result};
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::io::{Cursor, Read, Seek};
use std::sync::Arc;

/// The two shader stages a capture holds programs for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderStage {
    /// The vertex shader.
    Vertex,
    /// The pixel shader.
    Pixel,
}

impl ShaderStage {
    /// `"vs"` or `"ps"`, as the manifest names the stages.
    pub fn name(self) -> &'static str {
        match self {
            Self::Vertex => "vs",
            Self::Pixel => "ps",
        }
    }
}

/// A target a draw writes: a render target slot, or the depth-stencil view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TargetSlot {
    /// Render target slot 0 to 7.
    RenderTarget(u32),
    /// The depth-stencil view.
    DepthStencil,
}

impl fmt::Display for TargetSlot {
    /// `rt0` to `rt7`, or `depth`, as the viewer names targets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::RenderTarget(slot) => write!(f, "rt{slot}"),
            Self::DepthStencil => f.write_str("depth"),
        }
    }
}

/// A target's original view, as the draw bound it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetViewDesc {
    /// A render target view.
    RenderTarget(RenderTargetViewDesc),
    /// A depth-stencil view.
    DepthStencil(DepthStencilViewDesc),
}

/// One program a draw binds, as the manifest gives it (its blob is not read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgramSummary {
    /// Its stage.
    pub stage: ShaderStage,
    /// Its DXBC blob: hash and size.
    pub blob: BlobRef,
}

/// One target a draw writes, as the manifest gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetSummary {
    /// Which target.
    pub target: TargetSlot,
    /// The view's format (the resource's where the view says `UNKNOWN`).
    pub format: Format,
    /// Width of the written surface, in texels.
    pub width: u32,
    /// Height of the written surface, in texels.
    pub height: u32,
    /// The shape of the whole resource.
    pub resource: TextureShape,
    /// Whether the contents after the draw were recorded.
    pub after_recorded: bool,
}

/// What the manifest says of one draw, without reading a blob.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawSummary {
    /// Its position in the capture, from 0.
    pub index: usize,
    /// Its marker or debug name.
    pub name: Option<String>,
    /// The API call it came from, as the recorder wrote it.
    pub api_call: Option<String>,
    /// The call and its arguments.
    pub call: DrawCall,
    /// The primitive topology.
    pub topology: PrimitiveTopology,
    /// Its programs: the vertex program, then the pixel program if bound.
    pub programs: Vec<ProgramSummary>,
    /// Its geometry program's blob, if one is bound (version 1.4).
    pub geometry_program: Option<BlobRef>,
    /// Its hull and domain programs' blobs, if bound (version 1.4).
    pub tessellation_programs: [Option<BlobRef>; 2],
    /// Whether the call was indirect (`call` is what its argument buffer amounted to, version 1.4).
    pub indirect: bool,
    /// The targets it writes: render targets by slot, then depth-stencil.
    pub targets: Vec<TargetSummary>,
    /// Its stream-output buffers (version 1.4), in the manifest's order.
    pub stream_output: Vec<StreamOutputSummary>,
    /// Its unordered access views (version 1.4), in the manifest's order.
    pub uavs: Vec<UavSummary>,
    /// Why the draw cannot be read (a missing blob, inconsistent sizes ...), if it cannot.
    pub problem: Option<Error>,
}

/// A stream-output buffer of a draw, as the manifest gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamOutputSummary {
    /// The slot (`so0` ..).
    pub slot: u32,
    /// The buffer's size in bytes.
    pub bytes: u64,
    /// The byte offset the draw's first vertex went to.
    pub offset: u32,
    /// Whether the buffer after the draw was recorded.
    pub after_recorded: bool,
}

/// A stream-output buffer of a read draw, with what was recorded in it.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedStreamOutput {
    /// The slot.
    pub slot: u32,
    /// The whole buffer before the draw.
    pub before: Arc<[u8]>,
    /// The whole buffer after it as the GPU left it; `None` when not recorded.
    pub after: Option<Arc<[u8]>>,
}

/// A target of a read draw, with what was recorded in it.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedTarget {
    /// Which target.
    pub target: TargetSlot,
    /// The view's format (the resource's where the view says `UNKNOWN`): the format of `before` and `after`.
    pub format: Format,
    /// Width of the surface, in texels.
    pub width: u32,
    /// Height of the surface, in texels.
    pub height: u32,
    /// The shape of the whole resource.
    pub resource: TextureShape,
    /// The view as the draw bound it (the draw state holds it adjusted to a one-surface texture).
    pub view: TargetViewDesc,
    /// The surface before the draw: texels in `format`, rows packed, top row first.
    pub before: Arc<[u8]>,
    /// The surface after the draw as the GPU left it, in the same layout; `None` when not recorded.
    pub after: Option<Arc<[u8]>>,
}

/// One draw read from a capture: its state, ready for replay, and the recorded targets.
#[derive(Clone, Debug, PartialEq)]
pub struct CapturedDraw {
    /// Its position in the capture, from 0.
    pub index: usize,
    /// Its marker or debug name.
    pub name: Option<String>,
    /// The API call it came from.
    pub api_call: Option<String>,
    /// Everything the draw reads, labelled `draw N`; each target bound as a one-surface texture holding `before`
    /// (see the module documentation).
    pub state: DrawState,
    /// The targets: render targets by slot, then depth-stencil.
    pub targets: Vec<RecordedTarget>,
    /// Per `u#` slot (as `state.uavs`): what was recorded in the view after the draw (version 1.4).
    pub uavs_after: Vec<Option<RecordedUav>>,
    /// The stream-output buffers by slot order (version 1.4).
    pub stream_output: Vec<RecordedStreamOutput>,
    /// What to call it ([`DrawSummary::label`]).
    pub label: String,
}

/// One resolve read from a capture: what it reads and what it left.
#[derive(Clone, Debug, PartialEq)]
pub struct CapturedResolve {
    /// Its position in the capture's `resolves`, from 0.
    pub index: usize,
    /// How many of the capture's draws came before it.
    pub before_draw: u64,
    /// The API call, as the recorder wrote it.
    pub api_call: Option<String>,
    /// What to call it ([`ResolveEntry::label`]).
    pub label: String,
    /// The resolve format, the size and the sample count.
    pub layout: ResolveLayout,
    /// The shape of the whole source resource.
    pub source: TextureShape,
    /// The source subresource.
    pub source_subresource: u32,
    /// The shape of the whole destination resource.
    pub destination: TextureShape,
    /// The destination subresource.
    pub destination_subresource: u32,
    /// The source subresource's texels in the resolve format: `samples` planes, sample 0's first.
    pub samples: Arc<[u8]>,
    /// The destination subresource before the resolve, in the resolve format, rows packed, top row first.
    pub before: Arc<[u8]>,
    /// The destination subresource after it, as the GPU left it; `None` when not recorded.
    pub after: Option<Arc<[u8]>>,
}

pub use super::outline::FrameEvent;

/// What the manifest says of one dispatch, without reading a blob.
#[derive(Clone, Debug, PartialEq)]
pub struct DispatchSummary {
    /// Its position in the capture's `dispatches`, from 0.
    pub index: usize,
    /// How many draws came before it.
    pub before_draw: u64,
    /// How many resolves came before it.
    pub before_resolve: u64,
    /// What to call it ([`DispatchEntry::label`]).
    pub label: String,
    /// Thread groups in X, Y and Z.
    pub groups: [u32; 3],
    /// Its compute program's blob.
    pub program: Option<BlobRef>,
    /// Its views, in the manifest's order.
    pub uavs: Vec<UavSummary>,
    /// Why it cannot be read, if it cannot.
    pub problem: Option<Error>,
}

/// One view of a dispatch, as the manifest gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UavSummary {
    /// The slot (`u0` ..).
    pub slot: u32,
    /// The view.
    pub view: UnorderedAccessViewDesc,
    /// Its window, when the view fits its resource.
    pub layout: Option<UavLayout>,
    /// Whether the window after the dispatch was recorded.
    pub after_recorded: bool,
    /// The counter after the dispatch, when recorded.
    pub counter_after: Option<u32>,
}

/// What was recorded in one view after a dispatch.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedUav {
    /// The slot.
    pub slot: u32,
    /// The view's window: the layout of `bytes`.
    pub layout: UavLayout,
    /// The window after the dispatch as the GPU left it; `None` when not recorded.
    pub bytes: Option<Arc<[u8]>>,
    /// An append or counter view's counter after it; `None` when not recorded.
    pub counter: Option<u32>,
}

/// One dispatch read from a capture: its state, ready for [`crate::dispatch::run_dispatch`], and what each view
/// held after it.
#[derive(Clone, Debug, PartialEq)]
pub struct CapturedDispatch {
    /// Its position in the capture's `dispatches`, from 0.
    pub index: usize,
    /// How many draws came before it.
    pub before_draw: u64,
    /// How many resolves came before it.
    pub before_resolve: u64,
    /// Its marker or debug name.
    pub name: Option<String>,
    /// The API call, as recorded.
    pub api_call: Option<String>,
    /// What to call it ([`DispatchEntry::label`]).
    pub label: String,
    /// Everything it reads; each view's resource holds its contents before the dispatch.
    pub state: DispatchState,
    /// Per `u#` slot (as `state.uavs`): what was recorded after the dispatch; `None` for an unbound slot.
    pub after: Vec<Option<RecordedUav>>,
}

/// What to call a draw, in every list and report: its marker or debug name, else the API call as recorded, else
/// the call with its arguments ([`super::api_call_text`]).
fn draw_label(name: Option<&str>, api_call: Option<&str>, call: DrawCall) -> String {
    name.or(api_call)
        .map_or_else(|| super::api_call_text(call), ToOwned::to_owned)
}

/// The names Iridia's recorder gave every draw before version 1.5 (the context that issued it): not a name that
/// says what a draw is.
const CONTEXT_NAMES: [&str; 2] = ["immediate context", "deferred context"];

impl DrawSummary {
    /// What to call the draw: its marker or debug name, else its call and state ([`DrawSummary::call_and_state`]).
    pub fn label(&self) -> String {
        match self.name.as_deref().filter(|n| !CONTEXT_NAMES.contains(n)) {
            Some(name) => name.to_owned(),
            None => self.call_and_state(),
        }
    }

    /// The draw's call, its render targets (or depth target) and its pixel program's hash, e.g.
    /// `DrawIndexed(1026, 0, 0) → rt0 1272x773, ps 392a9c` (`rt0+rt1` when the targets share a size, `no ps` without
    /// one): what names a draw the program gave no name.
    pub fn call_and_state(&self) -> String {
        let call = draw_label(None, self.api_call.as_deref(), self.call);
        let render_targets: Vec<&TargetSummary> = self
            .targets
            .iter()
            .filter(|t| t.target != TargetSlot::DepthStencil)
            .collect();
        let shown: Vec<&TargetSummary> = if render_targets.is_empty() {
            self.targets.iter().collect()
        } else {
            render_targets
        };
        let mut targets = Vec::new();
        let mut names = Vec::new();
        for (i, target) in shown.iter().enumerate() {
            names.push(target.target.to_string());
            let next_same = shown
                .get(i.saturating_add(1))
                .is_some_and(|n| (n.width, n.height) == (target.width, target.height));
            if !next_same {
                targets.push(format!("{} {}x{}", names.join("+"), target.width, target.height));
                names.clear();
            }
        }
        let ps = self
            .programs
            .iter()
            .find(|p| p.stage == ShaderStage::Pixel)
            .map_or_else(
                || "no ps".to_owned(),
                |p| {
                    let mut hash = p.blob.sha256.short();
                    hash.truncate(6);
                    format!("ps {hash}")
                },
            );
        if targets.is_empty() {
            format!("{call} → {ps}")
        } else {
            format!("{call} → {}, {ps}", targets.join(", "))
        }
    }
}

impl CapturedDraw {
    /// What to call the draw, as [`DrawSummary::label`] says.
    pub fn label(&self) -> String {
        self.label.clone()
    }

    /// The recorded target `target`, if the draw writes it.
    pub fn target(&self, target: TargetSlot) -> Option<&RecordedTarget> {
        self.targets.iter().find(|t| t.target == target)
    }
}

/// Inflated blobs kept for the next draws, oldest first out, within a byte budget.
struct BlobCache {
    limit: u64,
    bytes: u64,
    blobs: HashMap<BlobId, Arc<[u8]>>,
    order: VecDeque<BlobId>,
}

impl BlobCache {
    fn get(&self, id: &BlobId) -> Option<Arc<[u8]>> {
        self.blobs.get(id).cloned()
    }

    fn insert(&mut self, id: BlobId, blob: Arc<[u8]>) {
        let size = u64::try_from(blob.len()).unwrap_or(u64::MAX);
        if size > self.limit || self.blobs.contains_key(&id) {
            return;
        }
        while self.bytes.saturating_add(size) > self.limit {
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            if let Some(gone) = self.blobs.remove(&oldest) {
                self.bytes = self.bytes.saturating_sub(u64::try_from(gone.len()).unwrap_or(u64::MAX));
            }
        }
        self.bytes = self.bytes.saturating_add(size);
        self.blobs.insert(id, blob);
        self.order.push_back(id);
    }

    fn set_limit(&mut self, limit: u64) {
        self.limit = limit;
        self.insert_nothing();
    }

    /// Evicts until within the limit.
    fn insert_nothing(&mut self) {
        while self.bytes > self.limit {
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            if let Some(gone) = self.blobs.remove(&oldest) {
                self.bytes = self.bytes.saturating_sub(u64::try_from(gone.len()).unwrap_or(u64::MAX));
            }
        }
    }
}

/// An open capture: its archive's directory, its manifest, and what it found wrong with each draw.
pub struct Capture<R> {
    archive: Archive<R>,
    manifest: Manifest,
    problems: Vec<Option<Error>>,
    /// What was found wrong with each resolve.
    resolve_problems: Vec<Option<Error>>,
    /// What was found wrong with each dispatch.
    dispatch_problems: Vec<Option<Error>>,
    /// Why the manifest's events (version 1.5) are not used, if they do not check out.
    events_problem: Option<Error>,
    cache: BlobCache,
    /// The most bytes one draw's blobs may inflate to.
    draw_memory_limit: u64,
}

impl<R> fmt::Debug for Capture<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Capture")
            .field("version", &self.manifest.version)
            .field("draws", &self.manifest.draws.len())
            .field("archive_bytes", &self.archive.length)
            .finish_non_exhaustive()
    }
}

impl Capture<Cursor<Arc<[u8]>>> {
    /// Opens the capture whose archive is `bytes` (the whole file in memory, as the browser has it): reads the ZIP
    /// directory and the manifest, and checks every draw against the directory, inflating no blob.
    pub fn open(bytes: impl Into<Arc<[u8]>>) -> Result<Self> {
        Self::from_reader(Cursor::new(bytes.into()))
    }
}

impl<R: Read + Seek> Capture<R> {
    /// Opens the capture whose archive `reader` holds (see [`Capture::open`]).
    pub fn from_reader(reader: R) -> Result<Self> {
        let mut archive = Archive::open(reader)?;
        let bytes = archive.read_manifest()?;
        let manifest = parse_manifest(&bytes)?;
        drop(bytes);
        let problems = manifest
            .draws
            .iter()
            .enumerate()
            .map(|(index, draw)| {
                let blob_size = |id: &BlobId| archive.blob_size(id);
                DrawCheck {
                    item: "draw",
                    index,
                    blob_size: &blob_size,
                }
                .draw(draw)
                .err()
            })
            .collect();
        let mut earliest = 0;
        let resolve_problems = manifest
            .resolves
            .iter()
            .enumerate()
            .map(|(index, resolve)| {
                let blob_size = |id: &BlobId| archive.blob_size(id);
                let check = DrawCheck {
                    item: "resolve",
                    index,
                    blob_size: &blob_size,
                };
                let result = check.resolve(resolve, manifest.draws.len(), earliest);
                earliest = earliest.max(resolve.before_draw);
                result.err()
            })
            .collect();
        let mut earliest = (0, 0);
        let dispatch_problems = manifest
            .dispatches
            .iter()
            .enumerate()
            .map(|(index, dispatch)| {
                let blob_size = |id: &BlobId| archive.blob_size(id);
                let check = DrawCheck {
                    item: "dispatch",
                    index,
                    blob_size: &blob_size,
                };
                let result = check.dispatch(dispatch, manifest.draws.len(), &manifest.resolves, earliest);
                earliest = (
                    earliest.0.max(dispatch.before_draw),
                    earliest.1.max(dispatch.before_resolve),
                );
                result.err()
            })
            .collect();
        let events_problem = super::outline::check_events(&manifest).err();
        Ok(Self {
            archive,
            manifest,
            problems,
            resolve_problems,
            dispatch_problems,
            events_problem,
            cache: BlobCache {
                limit: DEFAULT_CACHE_BYTES,
                bytes: 0,
                blobs: HashMap::new(),
                order: VecDeque::new(),
            },
            draw_memory_limit: super::DEFAULT_DRAW_MEMORY,
        })
    }

    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The archive's size in bytes.
    pub fn archive_len(&self) -> u64 {
        self.archive.length
    }

    /// Bytes at the end of the file that follow its last complete directory and were ignored: what a recorder
    /// wrote after its last snapshot before it stopped (0 for a capture written to the end).
    pub fn ignored_tail(&self) -> u64 {
        self.archive.ignored_tail
    }

    /// The draws of the frame the writer could not record (version 1.1), in the frame's order.
    pub fn unrecorded_draws(&self) -> &[super::UnrecordedDrawEntry] {
        &self.manifest.unrecorded_draws
    }

    /// The number of draws.
    pub fn draw_count(&self) -> usize {
        self.manifest.draws.len()
    }

    /// Why draw `index` cannot be read, if it cannot (found at open).
    pub fn problem(&self, index: usize) -> Option<&Error> {
        self.problems.get(index).and_then(Option::as_ref)
    }

    /// The frame's resolves (version 1.2), in the frame's order, as the manifest gives them.
    pub fn resolves(&self) -> &[ResolveEntry] {
        &self.manifest.resolves
    }

    /// Why resolve `index` cannot be read, if it cannot (found at open).
    pub fn resolve_problem(&self, index: usize) -> Option<&Error> {
        self.resolve_problems.get(index).and_then(Option::as_ref)
    }

    /// Reads resolve `index`: inflates its blobs (only those).
    pub fn resolve(&mut self, index: usize) -> Result<CapturedResolve> {
        let count = self.manifest.resolves.len();
        let entry = self
            .manifest
            .resolves
            .get(index)
            .cloned()
            .ok_or_else(|| capture_error(format!("there is no resolve {index}; the capture has {count}")))?;
        if let Some(problem) = self.resolve_problem(index) {
            return Err(problem.clone());
        }
        let blob_size = |id: &BlobId| self.archive.blob_size(id);
        let layout = DrawCheck {
            item: "resolve",
            index,
            blob_size: &blob_size,
        }
        .resolve(&entry, self.manifest.draws.len(), 0)?;
        let mut load = |path: &str, blob: &BlobRef| -> Result<Arc<[u8]>> {
            self.blob(&blob.sha256).map_err(|e| {
                capture_error(format!("blob {}…: {}", blob.sha256.short(), e.detail))
                    .at(format!("resolve {index} {path}"))
            })
        };
        let samples = load("source data", &entry.source.data)?;
        let before = load("destination before", &entry.destination.before)?;
        let after = match &entry.destination.after {
            Some(blob) => Some(load("destination after", blob)?),
            None => None,
        };
        Ok(CapturedResolve {
            index,
            before_draw: entry.before_draw,
            api_call: entry.api_call.clone(),
            label: entry.label(),
            layout,
            source: TextureShape::from(&entry.source.resource),
            source_subresource: entry.source.subresource,
            destination: TextureShape::from(&entry.destination.resource),
            destination_subresource: entry.destination.subresource,
            samples,
            before,
            after,
        })
    }

    /// The first problem of any draw, resolve or dispatch: `Ok` when every one can be read.
    pub fn check(&self) -> Result<()> {
        match self
            .problems
            .iter()
            .chain(&self.resolve_problems)
            .chain(&self.dispatch_problems)
            .flatten()
            .next()
        {
            Some(problem) => Err(problem.clone()),
            None => Ok(()),
        }
    }

    /// Every draw's summary, from the manifest alone.
    pub fn draws(&self) -> Vec<DrawSummary> {
        (0..self.manifest.draws.len())
            .filter_map(|index| self.draw_summary(index))
            .collect()
    }

    /// Draw `index`'s summary, from the manifest alone.
    pub fn draw_summary(&self, index: usize) -> Option<DrawSummary> {
        let draw = self.manifest.draws.get(index)?;
        let mut programs = Vec::new();
        for (stage, entry) in [(ShaderStage::Vertex, &draw.vs), (ShaderStage::Pixel, &draw.ps)] {
            if let Some(blob) = entry.dxbc {
                programs.push(ProgramSummary { stage, blob });
            }
        }
        let mut targets = Vec::new();
        let mut render_targets: Vec<_> = draw.render_targets.iter().collect();
        render_targets.sort_by_key(|t| t.slot);
        for target in render_targets {
            let shape = TextureShape::from(&target.resource);
            let view = RenderTargetViewDesc::from(&target.view);
            let layout = render_target_layout(&shape, &view)
                .unwrap_or_else(|_| loose_layout(&shape, view.format, view.mip_slice));
            targets.push(summary_of(
                TargetSlot::RenderTarget(target.slot),
                &layout,
                shape,
                target.after.is_some(),
            ));
        }
        if let Some(target) = &draw.depth_stencil_view {
            let shape = TextureShape::from(&target.resource);
            let view = DepthStencilViewDesc::from(&target.view);
            let layout = depth_stencil_layout(&shape, &view)
                .unwrap_or_else(|_| loose_layout(&shape, view.format, view.mip_slice));
            targets.push(summary_of(
                TargetSlot::DepthStencil,
                &layout,
                shape,
                target.after.is_some(),
            ));
        }
        let stream_output = draw
            .stream_output
            .iter()
            .flat_map(|so| &so.targets)
            .map(|target| StreamOutputSummary {
                slot: target.slot,
                bytes: target.data.size,
                offset: target.offset,
                after_recorded: target.after.is_some(),
            })
            .collect();
        Some(DrawSummary {
            index,
            name: draw.name.clone(),
            api_call: draw.api_call.clone(),
            call: draw.call.into(),
            topology: draw.topology,
            programs,
            geometry_program: draw.gs.as_ref().and_then(|gs| gs.dxbc),
            tessellation_programs: [&draw.hs, &draw.ds].map(|stage| stage.as_ref().and_then(|s| s.dxbc)),
            indirect: draw.indirect,
            targets,
            stream_output,
            uavs: draw.uavs.iter().map(uav_summary).collect(),
            problem: self.problem(index).cloned(),
        })
    }

    /// The blobs the archive holds, with their declared sizes, in no particular order.
    pub fn blobs(&self) -> Vec<(BlobId, u64)> {
        self.archive.blobs().collect()
    }

    /// Sets how many bytes of inflated blobs are kept for later draws (0 keeps none).
    pub fn set_cache_limit(&mut self, bytes: u64) {
        self.cache.set_limit(bytes);
    }

    /// Sets the most bytes one draw's blobs may inflate to ([`super::DEFAULT_DRAW_MEMORY`]).
    pub fn set_draw_memory_limit(&mut self, bytes: u64) {
        self.draw_memory_limit = bytes;
    }

    /// The bytes of blob `id`, inflated and checked against its hash (or from the cache).
    pub fn blob(&mut self, id: &BlobId) -> Result<Arc<[u8]>> {
        if let Some(blob) = self.cache.get(id) {
            return Ok(blob);
        }
        let blob = self.archive.read_blob(id)?;
        self.cache.insert(*id, blob.clone());
        Ok(blob)
    }

    /// Reads draw `index`: inflates the blobs it needs (only those) and builds its state and recorded targets.
    pub fn draw(&mut self, index: usize) -> Result<CapturedDraw> {
        let count = self.manifest.draws.len();
        let entry = self.manifest.draws.get(index).cloned().ok_or_else(|| {
            capture_error(format!(
                "there is no draw {index}; the capture has {count} (0 to {})",
                count.saturating_sub(1)
            ))
        })?;
        if let Some(problem) = self.problem(index) {
            return Err(problem.clone());
        }
        // each blob inflated once for the draw however often it references it (an array's equal slices), even when
        // it is past the cache's limit; their declared sizes, summed before each is inflated, within the draw's limit
        let mut blobs = ItemBlobs::new(format!("draw {index}"), "draw", self.draw_memory_limit);
        let mut load = |path: &str, blob: &BlobRef| self.load_for(&mut blobs, path, blob);
        let mut draw = build_draw(index, &entry, &mut load)?;
        if let Some(summary) = self.draw_summary(index) {
            draw.label = summary.label();
        }
        Ok(draw)
    }
}

/// The blobs read for one draw or dispatch: each inflated once however often the item references it, their declared
/// sizes summed, before each is inflated, within the item's memory limit.
struct ItemBlobs {
    read: HashMap<BlobId, Arc<[u8]>>,
    total: u64,
    limit: u64,
    /// `draw 3`, `dispatch 0`: where errors are.
    at: String,
    /// `draw` or `dispatch`, for the limit's message.
    kind: &'static str,
}

impl ItemBlobs {
    fn new(at: String, kind: &'static str, limit: u64) -> Self {
        Self {
            read: HashMap::new(),
            total: 0,
            limit,
            at,
            kind,
        }
    }
}

impl<R: Read + Seek> Capture<R> {
    /// Blob `blob` for the item at `path` of `blobs`' item, within its memory limit.
    fn load_for(&mut self, blobs: &mut ItemBlobs, path: &str, blob: &BlobRef) -> Result<Arc<[u8]>> {
        if let Some(bytes) = blobs.read.get(&blob.sha256) {
            return Ok(Arc::clone(bytes));
        }
        let size = self.archive.blob_size(&blob.sha256).unwrap_or(0);
        blobs.total = blobs.total.saturating_add(size);
        if blobs.total > blobs.limit {
            return Err(Error::of_kind(
                crate::error::ErrorKind::Budget,
                "capture",
                format!(
                    "the {}'s blobs inflate to more than its memory limit of {} bytes (at least {}; \
                     --max-memory on the command line, Settings in the viewer)",
                    blobs.kind, blobs.limit, blobs.total
                ),
            )
            .at(format!("{} {path}", blobs.at)));
        }
        let bytes = self.blob(&blob.sha256).map_err(|e| {
            capture_error(format!("blob {}…: {}", blob.sha256.short(), e.detail)).at(format!("{} {path}", blobs.at))
        })?;
        blobs.read.insert(blob.sha256, Arc::clone(&bytes));
        Ok(bytes)
    }

    /// The frame's dispatches (version 1.3), in the frame's order, as the manifest gives them.
    pub fn dispatches(&self) -> &[DispatchEntry] {
        &self.manifest.dispatches
    }

    /// Why dispatch `index` cannot be read, if it cannot (found at open).
    pub fn dispatch_problem(&self, index: usize) -> Option<&Error> {
        self.dispatch_problems.get(index).and_then(Option::as_ref)
    }

    /// Every dispatch's summary, from the manifest alone.
    pub fn dispatch_summaries(&self) -> Vec<DispatchSummary> {
        self.manifest
            .dispatches
            .iter()
            .enumerate()
            .map(|(index, entry)| {
                let uavs = entry.uavs.iter().map(uav_summary).collect();
                DispatchSummary {
                    index,
                    before_draw: entry.before_draw,
                    before_resolve: entry.before_resolve,
                    label: entry.label(),
                    groups: entry.groups,
                    program: entry.cs.dxbc,
                    uavs,
                    problem: self.dispatch_problem(index).cloned(),
                }
            })
            .collect()
    }

    /// The frame's draws, resolves and dispatches in submission order (from the manifest's `before_draw` and
    /// `before_resolve`).
    pub fn events(&self) -> Vec<FrameEvent> {
        frame_events(&self.manifest)
    }

    /// The frame's outline (version 1.5): its draws, resolves and dispatches in order with the program's markers as
    /// groups around them and its clears, copies and updates between them ([`super::outline`]); without markers
    /// when the capture has none or its events do not check out ([`Capture::events_problem`]).
    pub fn outline(&self) -> super::outline::Outline {
        let events: &[super::manifest::EventEntry] = if self.events_problem.is_some() {
            &[]
        } else {
            &self.manifest.events
        };
        super::outline::outline(&frame_events(&self.manifest), events)
    }

    /// Why the capture's events are not used (the outline then has none), if they do not check out.
    pub fn events_problem(&self) -> Option<&Error> {
        self.events_problem.as_ref()
    }

    /// Reads dispatch `index`: inflates its blobs (only those, within the memory limit a draw has) and builds its
    /// state, each view bound with its resource before the dispatch, and what was recorded after it.
    pub fn dispatch(&mut self, index: usize) -> Result<CapturedDispatch> {
        let count = self.manifest.dispatches.len();
        let entry = self
            .manifest
            .dispatches
            .get(index)
            .cloned()
            .ok_or_else(|| capture_error(format!("there is no dispatch {index}; the capture has {count}")))?;
        if let Some(problem) = self.dispatch_problem(index) {
            return Err(problem.clone());
        }
        let blob_size = |id: &BlobId| self.archive.blob_size(id);
        let layouts = DrawCheck {
            item: "dispatch",
            index,
            blob_size: &blob_size,
        }
        .dispatch(&entry, self.manifest.draws.len(), &self.manifest.resolves, (0, 0))?;
        let item = format!("dispatch {index}");
        let mut blobs = ItemBlobs::new(item.clone(), "dispatch", self.draw_memory_limit);
        let mut load = |path: &str, blob: &BlobRef| self.load_for(&mut blobs, path, blob);
        let program = entry
            .cs
            .dxbc
            .as_ref()
            .ok_or_else(|| capture_error("the dispatch has no compute program").at(format!("{item} cs dxbc")))?;
        let compute_shader = load("cs dxbc", program)?;
        let mut resources = Vec::new();
        let bindings = build_stage(&item, "cs", &entry.cs, &mut load, &mut resources)?;
        let mut uavs = Vec::new();
        let mut after = Vec::new();
        for (position, (uav, layout)) in entry.uavs.iter().zip(layouts).enumerate() {
            let path = format!("uavs[{position}]");
            let resource = build_resource(
                &item,
                &format!("{path} resource"),
                &uav.resource,
                &mut load,
                &mut resources,
            )?;
            let binding = UnorderedAccessViewBinding {
                resource,
                desc: UnorderedAccessViewDesc::from(&uav.view),
                initial_count: uav.initial_count,
            };
            let place = |e: Error| capture_error(e.detail).at(format!("{item} {path}"));
            bind_slot(&mut uavs, uav.slot, binding, UAV_SLOTS).map_err(place)?;
            let bytes = match &uav.after {
                Some(blob) => Some(load(&format!("{path} after"), blob)?),
                None => None,
            };
            let recorded = RecordedUav {
                slot: uav.slot,
                layout,
                bytes,
                counter: uav.counter_after,
            };
            bind_slot(&mut after, uav.slot, recorded, UAV_SLOTS).map_err(place)?;
        }
        after.resize(uavs.len(), None);
        Ok(CapturedDispatch {
            index,
            before_draw: entry.before_draw,
            before_resolve: entry.before_resolve,
            name: entry.name.clone(),
            api_call: entry.api_call.clone(),
            label: entry.label(),
            state: DispatchState {
                compute_shader,
                bindings,
                uavs,
                groups: entry.groups,
            },
            after,
        })
    }
}

/// The window of a view of a dispatch or draw, from the manifest alone (`None` when it does not fit its resource).
fn uav_entry_layout(uav: &UavEntry) -> Option<UavLayout> {
    let view = UnorderedAccessViewDesc::from(&uav.view);
    match &uav.resource {
        ResourceEntry::Buffer { data } => uav_layout(&view, Some(data.size), None),
        ResourceEntry::Texture { shape, .. } => uav_layout(&view, None, Some(&TextureShape::from(shape))),
    }
    .ok()
}

/// A view of a dispatch or draw as the summaries give it.
fn uav_summary(uav: &UavEntry) -> UavSummary {
    UavSummary {
        slot: uav.slot,
        view: UnorderedAccessViewDesc::from(&uav.view),
        layout: uav_entry_layout(uav),
        after_recorded: uav.after.is_some(),
        counter_after: uav.counter_after,
    }
}

/// The order of a manifest's draws, resolves and dispatches: before draw `i`, the resolves and dispatches whose
/// `before_draw` is at most `i`, a dispatch after the first `before_resolve` resolves; after the last draw, the rest.
pub(crate) fn frame_events(manifest: &Manifest) -> Vec<FrameEvent> {
    let mut events = Vec::new();
    let mut resolves = manifest.resolves.iter().enumerate().peekable();
    let mut dispatches = manifest.dispatches.iter().enumerate().peekable();
    let mut flush = |events: &mut Vec<FrameEvent>, upto: u64| loop {
        let resolve = resolves.peek().filter(|(_, r)| r.before_draw <= upto).map(|(i, _)| *i);
        let dispatch = dispatches
            .peek()
            .filter(|(_, d)| d.before_draw <= upto)
            .map(|(i, d)| (*i, d.before_resolve));
        match (resolve, dispatch) {
            (Some(r), Some((d, before_resolve))) => {
                if before_resolve <= u64::try_from(r).unwrap_or(u64::MAX) {
                    dispatches.next();
                    events.push(FrameEvent::Dispatch(d));
                } else {
                    resolves.next();
                    events.push(FrameEvent::Resolve(r));
                }
            }
            (Some(r), None) => {
                resolves.next();
                events.push(FrameEvent::Resolve(r));
            }
            (None, Some((d, _))) => {
                dispatches.next();
                events.push(FrameEvent::Dispatch(d));
            }
            (None, None) => break,
        }
    };
    for index in 0..manifest.draws.len() {
        flush(&mut events, u64::try_from(index).unwrap_or(u64::MAX));
        events.push(FrameEvent::Draw(index));
    }
    flush(&mut events, u64::MAX);
    events
}

/// A target's layout for a summary when its view does not check out (the draw's problem says why): the view's
/// format and the mip's size, as far as they go.
fn loose_layout(shape: &TextureShape, view_format: Format, level: u32) -> SurfaceLayout {
    let [width, height, _] = shape.mip_size(level);
    SurfaceLayout {
        format: if view_format == Format::Unknown {
            shape.format
        } else {
            view_format
        },
        width,
        height,
        samples: shape.sample_count,
        bytes: 0,
    }
}

/// A target's summary.
fn summary_of(target: TargetSlot, layout: &SurfaceLayout, resource: TextureShape, after: bool) -> TargetSummary {
    TargetSummary {
        target,
        format: layout.format,
        width: layout.width,
        height: layout.height,
        resource,
        after_recorded: after,
    }
}

/// The message of a serde_json error without its position, and the position as `line L column C`.
fn json_error_parts(error: &serde_json::Error) -> (String, String) {
    let message = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    let message = message.strip_suffix(&suffix).map(str::to_owned).unwrap_or(message);
    (
        message,
        format!("{MANIFEST_NAME} line {} column {}", error.line(), error.column()),
    )
}

/// The manifest from its bytes: JSON, the format's name, a version this reader reads, then the typed manifest.
pub(crate) fn parse_manifest(bytes: &[u8]) -> Result<Manifest> {
    let header: ManifestHeader = serde_json::from_slice(bytes).map_err(|e| {
        let (message, at) = json_error_parts(&e);
        capture_error(format!("the manifest is not JSON: {message}")).at(at)
    })?;
    match header.format.as_ref().and_then(|f| f.as_str()) {
        Some(FORMAT_NAME) => {}
        Some(other) => {
            return Err(
                capture_error(format!("the manifest's format is {other:?}, not {FORMAT_NAME:?}")).at(MANIFEST_NAME),
            );
        }
        None => {
            return Err(capture_error(format!(
                "the manifest has no \"format\": {FORMAT_NAME:?} (is this an Iridia capture?)"
            ))
            .at(MANIFEST_NAME));
        }
    }
    let version =
        header.version.as_ref().and_then(|v| v.as_str()).ok_or_else(|| {
            capture_error("the manifest has no \"version\" string (\"major.minor\")").at(MANIFEST_NAME)
        })?;
    let major = version
        .split_once('.')
        .filter(|(_, minor)| !minor.is_empty() && minor.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|(major, _)| major.parse::<u32>().ok())
        .ok_or_else(|| capture_error(format!("the version {version:?} is not \"major.minor\"")).at(MANIFEST_NAME))?;
    if major != VERSION_MAJOR {
        return Err(capture_error(format!(
            "format version {version} is not one this reader reads: it reads versions {VERSION_MAJOR}.x"
        ))
        .at(MANIFEST_NAME));
    }
    serde_json::from_slice::<Manifest>(bytes).map_err(|e| locate_manifest_error(bytes, &e))
}

/// The largest manifest whose typed error is placed at its draw and item by reading it again as a value tree.
const LOCATE_LIMIT_BYTES: usize = 16 << 20;

/// A typed manifest error, placed at the draw and item it is in when that can be found (for manifests of at most
/// [`LOCATE_LIMIT_BYTES`]).
fn locate_manifest_error(bytes: &[u8], error: &serde_json::Error) -> Error {
    let (message, at) = json_error_parts(error);
    let fallback = || capture_error(format!("the manifest does not read: {message}")).at(at.clone());
    // A value tree takes up to some 16 times its JSON's bytes (a `0,` is a 2-byte array element and a 32-byte value):
    // a larger manifest keeps the parser's line and column rather than a draw and item.
    if bytes.len() > LOCATE_LIMIT_BYTES {
        return fallback();
    }
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        return fallback();
    };
    let draws = value
        .get("draws")
        .and_then(|d| d.as_array())
        .map_or(&[][..], Vec::as_slice);
    for (index, draw) in draws.iter().enumerate() {
        if let Some((path, message)) = locate_draw_error(draw) {
            let at = if path.is_empty() {
                format!("draw {index}")
            } else {
                format!("draw {index} {path}")
            };
            return capture_error(message).at(at);
        }
    }
    let resolves = value
        .get("resolves")
        .and_then(|r| r.as_array())
        .map_or(&[][..], Vec::as_slice);
    for (index, resolve) in resolves.iter().enumerate() {
        if let Some((path, message)) = locate_resolve_error(resolve) {
            return capture_error(message).at(format!("resolve {index} {path}").trim_end().to_owned());
        }
    }
    let dispatches = value
        .get("dispatches")
        .and_then(|r| r.as_array())
        .map_or(&[][..], Vec::as_slice);
    for (index, dispatch) in dispatches.iter().enumerate() {
        if let Some((path, message)) = locate_dispatch_error(dispatch) {
            return capture_error(message).at(format!("dispatch {index} {path}").trim_end().to_owned());
        }
    }
    fallback()
}

/// Loads a blob for the item at a path of a draw (`"ps dxbc"`), with errors placed there.
type LoadBlob<'a> = dyn FnMut(&str, &BlobRef) -> Result<Arc<[u8]>> + 'a;

/// Builds a draw's state and recorded targets from its (checked) entry, loading each blob through `load`.
fn build_draw(index: usize, entry: &DrawEntry, load: &mut LoadBlob<'_>) -> Result<CapturedDraw> {
    let place = |path: &str| {
        let at = format!("draw {index} {path}");
        move |e: Error| capture_error(e.detail).at(at)
    };
    let vs_blob = entry
        .vs
        .dxbc
        .as_ref()
        .ok_or_else(|| capture_error("the vertex stage has no program").at(format!("draw {index} vs dxbc")))?;
    let vertex_shader = load("vs dxbc", vs_blob)?;
    let mut state = DrawState::new(format!("draw {index}"), vertex_shader, entry.call.into());
    state.pixel_shader = match &entry.ps.dxbc {
        Some(blob) => Some(load("ps dxbc", blob)?),
        None => None,
    };
    state.input_layout = entry.input_layout.iter().map(Into::into).collect();
    for (position, buffer) in entry.vertex_buffers.iter().enumerate() {
        let path = format!("vertex_buffers[{position}]");
        let binding = VertexBufferBinding {
            data: load(&format!("{path} data"), &buffer.data)?,
            stride: buffer.stride,
            offset: buffer.offset,
        };
        bind_slot(&mut state.vertex_buffers, buffer.slot, binding, VERTEX_BUFFER_SLOTS).map_err(place(&path))?;
    }
    if let Some(index_buffer) = &entry.index_buffer {
        state.index_buffer = Some(IndexBufferBinding {
            data: load("index_buffer data", &index_buffer.data)?,
            format: index_buffer.format,
            offset: index_buffer.offset,
        });
    }
    state.topology = entry.topology;
    let mut resources = Vec::new();
    let item = format!("draw {index}");
    state.vs = build_stage(&item, "vs", &entry.vs, load, &mut resources)?;
    // the stages with a program of their own, when bound: hull, domain, geometry
    let mut optional_stage = |name: &str, stage: &Option<StageEntry>| -> Result<Option<(Arc<[u8]>, StageBindings)>> {
        let Some(stage) = stage else {
            return Ok(None);
        };
        let blob = stage.dxbc.as_ref().ok_or_else(|| {
            capture_error(format!("the {name} stage has no program")).at(format!("{item} {name} dxbc"))
        })?;
        let program = load(&format!("{name} dxbc"), blob)?;
        Ok(Some((program, build_stage(&item, name, stage, load, &mut resources)?)))
    };
    if let Some((program, bindings)) = optional_stage("hs", &entry.hs)? {
        state.hull_shader = Some(program);
        state.hs = bindings;
    }
    if let Some((program, bindings)) = optional_stage("ds", &entry.ds)? {
        state.domain_shader = Some(program);
        state.ds = bindings;
    }
    if let Some((program, bindings)) = optional_stage("gs", &entry.gs)? {
        state.geometry_shader = Some(program);
        state.gs = bindings;
    }
    state.ps = build_stage(&item, "ps", &entry.ps, load, &mut resources)?;
    let mut stream_output = Vec::new();
    if let Some(so) = &entry.stream_output {
        let mut targets: [Option<StreamOutputTarget>; 4] = Default::default();
        for (position, target) in so.targets.iter().enumerate() {
            let path = format!("stream_output targets[{position}]");
            let before = load(&format!("{path} data"), &target.data)?;
            let after = match &target.after {
                Some(blob) => Some(load(&format!("{path} after"), blob)?),
                None => None,
            };
            let place = usize::try_from(target.slot)
                .ok()
                .and_then(|slot| targets.get_mut(slot))
                .ok_or_else(|| capture_error("a stream-output slot past 3").at(format!("{item} {path}")))?;
            *place = Some(StreamOutputTarget {
                buffer: before.clone(),
                offset: target.offset,
            });
            stream_output.push(RecordedStreamOutput {
                slot: target.slot,
                before,
                after,
            });
        }
        stream_output.sort_by_key(|s| s.slot);
        let mut strides = [0u32; 4];
        for (place, stride) in strides.iter_mut().zip(&so.strides) {
            *place = *stride;
        }
        state.stream_output = Some(StreamOutputState {
            entries: so
                .declaration
                .iter()
                .map(|d| StreamOutputEntry {
                    stream: d.stream,
                    semantic: d.semantic_name.clone().map(|name| (name, d.semantic_index)),
                    start_component: d.start_component,
                    component_count: d.component_count,
                    slot: d.output_slot,
                })
                .collect(),
            strides,
            rasterized_stream: (so.rasterized_stream != super::convert::NO_RASTERIZED_STREAM)
                .then_some(so.rasterized_stream),
            targets,
        });
    }
    let mut uavs_after = Vec::new();
    for (position, uav) in entry.uavs.iter().enumerate() {
        let path = format!("uavs[{position}]");
        let place = |e: Error| capture_error(e.detail).at(format!("{item} {path}"));
        let layout = uav_entry_layout(uav)
            .ok_or_else(|| capture_error("the view does not fit its resource").at(format!("{item} {path} view")))?;
        let resource = build_resource(&item, &format!("{path} resource"), &uav.resource, load, &mut resources)?;
        let binding = UnorderedAccessViewBinding {
            resource,
            desc: UnorderedAccessViewDesc::from(&uav.view),
            initial_count: uav.initial_count,
        };
        bind_slot(&mut state.uavs, uav.slot, binding, UAV_SLOTS).map_err(place)?;
        let bytes = match &uav.after {
            Some(blob) => Some(load(&format!("{path} after"), blob)?),
            None => None,
        };
        let recorded = RecordedUav {
            slot: uav.slot,
            layout,
            bytes,
            counter: uav.counter_after,
        };
        bind_slot(&mut uavs_after, uav.slot, recorded, UAV_SLOTS).map_err(place)?;
    }
    uavs_after.resize(state.uavs.len(), None);
    state.rasterizer = (&entry.rasterizer).into();
    state.depth_stencil = (&entry.depth_stencil).into();
    state.stencil_ref = entry.stencil_ref;
    state.blend = (&entry.blend).into();
    state.blend_factor = entry.blend_factor.map(|f| f.0);
    state.sample_mask = entry.sample_mask;
    state.viewports = entry.viewports.iter().map(Into::into).collect();
    state.scissor_rects = entry.scissor_rects.iter().map(Into::into).collect();

    let mut targets = Vec::new();
    let mut render_targets: Vec<_> = entry.render_targets.iter().enumerate().collect();
    render_targets.sort_by_key(|(_, t)| t.slot);
    for (position, target) in render_targets {
        let path = format!("render_targets[{position}]");
        let shape = TextureShape::from(&target.resource);
        let view = RenderTargetViewDesc::from(&target.view);
        let layout = render_target_layout(&shape, &view).map_err(place(&path))?;
        let before = load(&format!("{path} before"), &target.before)?;
        let after = match &target.after {
            Some(blob) => Some(load(&format!("{path} after"), blob)?),
            None => None,
        };
        let texture = Texture::new(surface_texture(&shape, &layout), vec![before.clone()]).map_err(place(&path))?;
        let adjusted = RenderTargetViewDesc {
            mip_slice: 0,
            first_array_slice: 0,
            // the view's own array size: a geometry program selecting a slice past the recorded one is refused
            array_size: view.array_size,
            ..view
        };
        let bound = RenderTargetView {
            resource: Arc::new(Resource::Texture(texture)),
            desc: adjusted,
        };
        bind_slot(&mut state.render_targets, target.slot, bound, RENDER_TARGET_SLOTS).map_err(place(&path))?;
        targets.push(RecordedTarget {
            target: TargetSlot::RenderTarget(target.slot),
            format: layout.format,
            width: layout.width,
            height: layout.height,
            resource: shape,
            view: TargetViewDesc::RenderTarget(view),
            before,
            after,
        });
    }
    if let Some(target) = &entry.depth_stencil_view {
        let path = "depth_stencil_view";
        let shape = TextureShape::from(&target.resource);
        let view = DepthStencilViewDesc::from(&target.view);
        let layout = depth_stencil_layout(&shape, &view).map_err(place(path))?;
        let before = load(&format!("{path} before"), &target.before)?;
        let after = match &target.after {
            Some(blob) => Some(load(&format!("{path} after"), blob)?),
            None => None,
        };
        let texture = Texture::new(surface_texture(&shape, &layout), vec![before.clone()]).map_err(place(path))?;
        let adjusted = DepthStencilViewDesc {
            mip_slice: 0,
            first_array_slice: 0,
            array_size: view.array_size,
            ..view
        };
        state.depth_stencil_view = Some(DepthStencilView {
            resource: Arc::new(Resource::Texture(texture)),
            desc: adjusted,
        });
        targets.push(RecordedTarget {
            target: TargetSlot::DepthStencil,
            format: layout.format,
            width: layout.width,
            height: layout.height,
            resource: shape,
            view: TargetViewDesc::DepthStencil(view),
            before,
            after,
        });
    }
    Ok(CapturedDraw {
        index,
        label: draw_label(entry.name.as_deref(), entry.api_call.as_deref(), state.call),
        name: entry.name.clone(),
        api_call: entry.api_call.clone(),
        state,
        targets,
        uavs_after,
        stream_output,
    })
}

/// A resource of an item (`draw 3`) at `path`: built once for equal entries and shared through `resources`, as the
/// API would have bound one resource.
fn build_resource(
    item: &str,
    path: &str,
    entry: &ResourceEntry,
    load: &mut LoadBlob<'_>,
    resources: &mut Vec<(ResourceEntry, Arc<Resource>)>,
) -> Result<Arc<Resource>> {
    if let Some((_, resource)) = resources.iter().find(|(known, _)| known == entry) {
        return Ok(resource.clone());
    }
    let resource = match entry {
        ResourceEntry::Buffer { data } => Resource::Buffer(load(&format!("{path} data"), data)?),
        ResourceEntry::Texture { shape, subresources } => {
            let mut data = Vec::with_capacity(subresources.len());
            for (sub, blob) in subresources.iter().enumerate() {
                data.push(load(&format!("{path} subresources[{sub}]"), blob)?);
            }
            let texture = Texture::new(shape.into(), data)
                .map_err(|e| capture_error(e.detail).at(format!("{item} {}", path.trim_end_matches(" resource"))))?;
            Resource::Texture(texture)
        }
    };
    let resource = Arc::new(resource);
    resources.push((entry.clone(), resource.clone()));
    Ok(resource)
}

/// A stage's bindings. Resources equal in the manifest (same shape and blobs) are built once and shared through
/// `resources`, as the API would have bound one resource.
fn build_stage(
    item: &str,
    name: &str,
    stage: &StageEntry,
    load: &mut LoadBlob<'_>,
    resources: &mut Vec<(ResourceEntry, Arc<Resource>)>,
) -> Result<StageBindings> {
    let place = |path: String| move |e: Error| capture_error(e.detail).at(format!("{item} {path}"));
    let mut bindings = StageBindings::default();
    for (position, buffer) in stage.constant_buffers.iter().enumerate() {
        let path = format!("{name} constant_buffers[{position}]");
        let binding = ConstantBufferBinding {
            data: load(&format!("{path} data"), &buffer.data)?,
            first_constant: buffer.first_constant,
            num_constants: buffer.num_constants,
        };
        bind_slot(
            &mut bindings.constant_buffers,
            buffer.slot,
            binding,
            CONSTANT_BUFFER_SLOTS,
        )
        .map_err(place(path))?;
    }
    for (position, view) in stage.shader_resources.iter().enumerate() {
        let path = format!("{name} shader_resources[{position}]");
        let resource = build_resource(item, &format!("{path} resource"), &view.resource, load, resources)?;
        let bound = ShaderResourceView {
            resource,
            desc: (&view.view).into(),
        };
        bind_slot(&mut bindings.shader_resources, view.slot, bound, SHADER_RESOURCE_SLOTS).map_err(place(path))?;
    }
    for (position, sampler) in stage.samplers.iter().enumerate() {
        let path = format!("{name} samplers[{position}]");
        bind_slot(
            &mut bindings.samplers,
            sampler.slot,
            SamplerDesc::from(sampler),
            SAMPLER_SLOTS,
        )
        .map_err(place(path))?;
    }
    Ok(bindings)
}
