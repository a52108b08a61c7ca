//! The manifest of a capture (`manifest.json`), as the file holds it: one serde type per JSON object of
//! `docs/capture-format.md`, with the field names that document gives. These types *are* the format: they do not
//! follow renames in the pipeline's own types ([`crate::api::fixed_function`], [`crate::api::resource`]);
//! [`super::convert`] maps between the two.
//!
//! Every field of version 1.0 is required, except those typed `Option`, which may be `null` or absent. Unknown
//! fields are ignored (serde's default), so that a reader of 1.0 reads a 1.1 manifest. Enumerations are D3D11's
//! names (or numbers) as [`crate::api::enums`] reads them; formats are DXGI names as [`Format`] reads them. Floats are
//! [`F32`]: a JSON number or a string of the bits.

use crate::api::draw::IndexFormat;
use crate::api::enums::{
    AddressMode, Blend, BlendOp, ComparisonFunc, CullMode, DepthWriteMask, DsvDimension, FillMode, Filter,
    InputClassification, LogicOp, PrimitiveTopology, ResourceDimension, RtvDimension, SrvDimension, StencilOp,
    UavDimension,
};
use crate::api::limits::RENDER_TARGET_SLOTS;
use crate::format::Format;
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// The value of the manifest's `"format"` field.
pub const FORMAT_NAME: &str = "iridia-capture";

/// The format's major version: a reader reads manifests of its own major version only.
pub const VERSION_MAJOR: u32 = 1;

/// The format's minor version: minor versions add optional fields, which older readers ignore.
pub const VERSION_MINOR: u32 = 5;

/// The whole manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always [`FORMAT_NAME`].
    pub format: String,
    /// `"major.minor"`.
    pub version: String,
    /// The program that wrote the capture, free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
    /// The program whose frame was recorded, free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub application: Option<String>,
    /// The draws, in submission order.
    pub draws: Vec<DrawEntry>,
    /// Draws of the frame that were not recorded, with the reason (version 1.1; absent or empty: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unrecorded_draws: Vec<UnrecordedDrawEntry>,
    /// The frame's `ResolveSubresource` calls in the frame's order (version 1.2; absent or empty: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resolves: Vec<ResolveEntry>,
    /// The frame's `Dispatch` calls in the frame's order (version 1.3; absent or empty: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dispatches: Vec<DispatchEntry>,
    /// The frame's other events in its order (version 1.5; absent or empty: none): the program's own markers
    /// (`BeginEvent`, `EndEvent`, `SetMarker`), clears, copies and updates.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<EventEntry>,
}

/// An event of the frame that is not a draw, resolve or dispatch (version 1.5), placed among them by how many of each
/// came before it: a user-defined annotation (`ID3DUserDefinedAnnotation::BeginEvent`/`EndEvent`/`SetMarker`, or
/// `D3DPERF_*`), a clear, a copy or an update.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventEntry {
    /// `begin` (a marker region starts, `name` its text), `end` (the innermost open region ends), `marker` (a point
    /// marker, `name` its text), `clear`, `copy`, `update` or `generate_mips` (`name` the call as text); a reader
    /// shows a kind it does not know as a call.
    pub kind: String,
    /// The marker's text, or the call's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// How many recorded draws came before it.
    pub before_draw: u64,
    /// How many resolves came before it.
    #[serde(default)]
    pub before_resolve: u64,
    /// How many dispatches came before it.
    #[serde(default)]
    pub before_dispatch: u64,
}

/// A `Dispatch` of the frame (version 1.3): where it came among the draws and resolves, the compute program with
/// its bindings, every bound unordered access view with its whole resource before the dispatch, and what the GPU
/// left in each view's window (and counter) after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DispatchEntry {
    /// How many recorded draws (entries of `draws`) came before it in submission order.
    pub before_draw: u64,
    /// How many resolves (entries of `resolves`) came before it in submission order.
    pub before_resolve: u64,
    /// A marker or debug name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The API call, as text, e.g. `"Dispatch(4, 1, 1)"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_call: Option<String>,
    /// Whether the call was `DispatchIndirect` (version 1.4): `groups` are then what its argument buffer held.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub indirect: bool,
    /// `ThreadGroupCountX`, `Y` and `Z`.
    pub groups: [u32; 3],
    /// The compute stage: its program (required) and bindings.
    pub cs: StageEntry,
    /// The bound unordered access views (any order, each slot once).
    pub uavs: Vec<UavEntry>,
}

impl DispatchEntry {
    /// What to call it: its name, else its API call, else `Dispatch(x, y, z)`.
    pub fn label(&self) -> String {
        let [x, y, z] = self.groups;
        self.name
            .clone()
            .or_else(|| self.api_call.clone())
            .unwrap_or_else(|| format!("Dispatch({x}, {y}, {z})"))
    }
}

/// An unordered access view bound to a slot of a dispatch: the view, its whole resource before the dispatch, the
/// counter it was bound with, and the view's window (and counter) after the dispatch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UavEntry {
    /// The slot, 0 to 63.
    pub slot: u32,
    /// The view description.
    pub view: UnorderedAccessViewEntry,
    /// The resource and all its contents before the dispatch.
    pub resource: ResourceEntry,
    /// `pUAVInitialCounts`' value for the slot; `null` keeps the view's counter (replayed as 0).
    #[serde(default)]
    pub initial_count: Option<u32>,
    /// The view's window after the dispatch as the GPU left it (docs/capture-format.md section 5); `null` when not
    /// recorded.
    #[serde(default)]
    pub after: Option<BlobRef>,
    /// An append or counter view's hidden counter after the dispatch; `null` when not recorded (or no counter).
    #[serde(default)]
    pub counter_after: Option<u32>,
}

/// `D3D11_UNORDERED_ACCESS_VIEW_DESC`, flattened: fields a dimension does not use are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)] // D3D11's fields, documented on `UnorderedAccessViewDesc`
pub struct UnorderedAccessViewEntry {
    pub format: Format,
    pub dimension: UavDimension,
    pub mip_slice: u32,
    pub first_array_slice: u32,
    pub array_size: u32,
    pub first_element: u32,
    pub num_elements: u32,
    pub raw: bool,
    pub append: bool,
    pub counter: bool,
    pub structure_stride: u32,
}

/// A `ResolveSubresource` of the frame (version 1.2): where it came, the resolve format, the multisampled source
/// subresource with every sample, and the destination subresource before and after.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolveEntry {
    /// How many recorded draws (entries of `draws`) came before it in submission order.
    pub before_draw: u64,
    /// The API call, as text, e.g. `"ResolveSubresource(dst, 0, src, 0, R8G8B8A8_UNORM)"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_call: Option<String>,
    /// The `Format` argument: how both subresources' bits are read (5.6.6).
    pub format: Format,
    /// The multisampled subresource read.
    pub source: ResolveSourceEntry,
    /// The single-sampled subresource written.
    pub destination: ResolveDestinationEntry,
}

impl ResolveEntry {
    /// Its call and what it resolves: `ResolveSubresource [R8G8B8A8_UNORM 64x64 4x]` (the call as recorded, else
    /// `ResolveSubresource`); what `iridia info`, `iridia replay` and the viewer list.
    pub fn label(&self) -> String {
        let what = self.api_call.as_deref().unwrap_or("ResolveSubresource");
        let source = &self.source.resource;
        format!(
            "{what} [{} {}x{} {}x]",
            self.format, source.width, source.height, source.sample_count
        )
    }
}

/// The source of a resolve: the whole multisampled resource's shape, which subresource, and its contents (every
/// sample: `sample_count` planes, sample 0's first; docs/capture-format.md section 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolveSourceEntry {
    /// The shape of the whole resource.
    pub resource: TextureShapeEntry,
    /// The subresource resolved: `mip + slice * mip_levels`.
    pub subresource: u32,
    /// The subresource's contents before the resolve.
    pub data: BlobRef,
}

/// The destination of a resolve: the whole resource's shape, which subresource, and its contents before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolveDestinationEntry {
    /// The shape of the whole resource.
    pub resource: TextureShapeEntry,
    /// The subresource written: `mip + slice * mip_levels`.
    pub subresource: u32,
    /// The subresource before the resolve.
    pub before: BlobRef,
    /// The subresource after the resolve, as the GPU left it; `null` when not recorded.
    #[serde(default)]
    pub after: Option<BlobRef>,
}

/// A draw of the frame that the writer could not record (version 1.1), listed so that a reader knows the capture is
/// not the whole frame: where it came in the frame, the call, why it was not recorded and the targets it wrote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnrecordedDrawEntry {
    /// How many recorded draws (entries of `draws`) came before it in submission order.
    pub before_draw: u64,
    /// A marker or debug name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The API call, as text, e.g. `"DrawIndexed(36, 0, 0)"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_call: Option<String>,
    /// Why it was not recorded, for people.
    pub reason: String,
    /// The targets bound when it was issued, as far as the writer could tell.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<UnrecordedTargetEntry>,
}

impl UnrecordedDrawEntry {
    /// Its name or call, with its targets: `DrawIndexed(36, 0, 0) [rt0 R8G8B8A8_UNORM 1280x720 4x]` (the sample
    /// count only when above 1); what `iridia info`, `iridia replay` and the viewer list.
    pub fn label(&self) -> String {
        let what = self.name.as_deref().or(self.api_call.as_deref()).unwrap_or("a draw");
        let targets: Vec<String> = self
            .targets
            .iter()
            .map(|t| match t.sample_count {
                0 | 1 => format!("{} {} {}x{}", t.target, t.format, t.width, t.height),
                n => format!("{} {} {}x{} {n}x", t.target, t.format, t.width, t.height),
            })
            .collect();
        if targets.is_empty() {
            what.to_owned()
        } else {
            format!("{what} [{}]", targets.join(", "))
        }
    }
}

/// A target bound to an unrecorded draw: which one and its surface's format, size and sample count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnrecordedTargetEntry {
    /// `"rt0"` to `"rt7"` or `"depth"`.
    pub target: String,
    /// The view's format.
    pub format: Format,
    /// Width of the written surface, in texels.
    pub width: u32,
    /// Height of the written surface, in texels.
    pub height: u32,
    /// Samples per texel.
    pub sample_count: u32,
}

/// The first fields of a manifest, read before the rest so that a manifest of another major version (whose draws
/// may not parse as these types) is refused for its version.
#[derive(Debug, Deserialize)]
pub(crate) struct ManifestHeader {
    /// `"format"`, if present.
    #[serde(default)]
    pub format: Option<serde_json::Value>,
    /// `"version"`, if present.
    #[serde(default)]
    pub version: Option<serde_json::Value>,
}

/// The SHA-256 of a blob's bytes, which is also its name in the archive (`blobs/<64 lowercase hex digits>`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlobId(pub [u8; 32]);

impl BlobId {
    /// The SHA-256 of `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        use sha2::Digest as _;
        let digest = sha2::Sha256::digest(bytes);
        let mut id = [0u8; 32];
        for (out, byte) in id.iter_mut().zip(digest.iter()) {
            *out = *byte;
        }
        Self(id)
    }

    /// The first 8 hex digits, for messages.
    pub fn short(&self) -> String {
        let mut text = self.to_string();
        text.truncate(8);
        text
    }

    /// The archive entry that holds the blob: `blobs/<hex>`.
    pub fn entry_name(&self) -> String {
        format!("blobs/{self}")
    }
}

impl fmt::Display for BlobId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for byte in self.0 {
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for BlobId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BlobId({self})")
    }
}

impl FromStr for BlobId {
    type Err = String;

    /// Exactly 64 lowercase hex digits.
    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("{text:?} is not a SHA-256 in 64 lowercase hex digits");
        if text.len() != 64 {
            return Err(bad());
        }
        let mut id = [0u8; 32];
        for (out, pair) in id.iter_mut().zip(text.as_bytes().chunks_exact(2)) {
            let digit = |c: u8| match c {
                b'0'..=b'9' => Some(c.wrapping_sub(b'0')),
                b'a'..=b'f' => Some(c.wrapping_sub(b'a').wrapping_add(10)),
                _ => None,
            };
            let (Some(&high), Some(&low)) = (pair.first(), pair.get(1)) else {
                return Err(bad());
            };
            match (digit(high), digit(low)) {
                (Some(h), Some(l)) => *out = h << 4 | l,
                _ => return Err(bad()),
            }
        }
        Ok(Self(id))
    }
}

impl Serialize for BlobId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for BlobId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(de::Error::custom)
    }
}

/// A reference to a blob: its hash and its size in bytes. The size is checked against the archive's before the
/// blob is inflated; the hash after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BlobRef {
    /// The SHA-256 of the blob's bytes.
    pub sha256: BlobId,
    /// Its size in bytes.
    pub size: u64,
}

/// A float32 in the manifest: a JSON number (the decimal rounded to the nearest float32), or a string: `"nan"`,
/// `"inf"`, `"+inf"`, `"-inf"`, or `"0x"` and 1 to 8 hex digits giving the bits. Written as the shortest number that
/// reads back to the same bits, or as the bits when no number does (NaN, infinities).
#[derive(Clone, Copy, Debug, Default)]
pub struct F32(pub f32);

impl PartialEq for F32 {
    /// Equal bits (so that NaNs with the same payload are equal and 0 differs from -0).
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl F32 {
    /// The float a manifest string names, if it is one of the forms above.
    fn parse_text(text: &str) -> Option<f32> {
        let lower = text.trim().to_ascii_lowercase();
        match lower.as_str() {
            "nan" => return Some(f32::from_bits(0x7fc0_0000)),
            "inf" | "+inf" | "infinity" | "+infinity" => return Some(f32::INFINITY),
            "-inf" | "-infinity" => return Some(f32::NEG_INFINITY),
            _ => {}
        }
        let hex = lower.strip_prefix("0x")?;
        if hex.is_empty() || hex.len() > 8 {
            return None;
        }
        u32::from_str_radix(hex, 16).ok().map(f32::from_bits)
    }

    /// Whether serde_json writes `value` as a number that reads back to the same bits through [`F32`]'s reading
    /// (decimal to float64, then to float32).
    fn number_round_trips(value: f32) -> bool {
        if !value.is_finite() {
            return false;
        }
        let Ok(text) = serde_json::to_string(&value) else {
            return false;
        };
        serde_json::from_str::<f64>(&text).is_ok_and(|read| (read as f32).to_bits() == value.to_bits())
    }
}

impl Serialize for F32 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if Self::number_round_trips(self.0) {
            serializer.serialize_f32(self.0)
        } else {
            serializer.collect_str(&format_args!("0x{:08x}", self.0.to_bits()))
        }
    }
}

impl<'de> Deserialize<'de> for F32 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct F32Visitor;
        impl Visitor<'_> for F32Visitor {
            type Value = F32;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number, or a string \"nan\", \"inf\", \"-inf\" or \"0x\" with the float's bits")
            }
            fn visit_f64<E: de::Error>(self, value: f64) -> Result<F32, E> {
                let rounded = value as f32;
                if value.is_finite() && !rounded.is_finite() {
                    return Err(E::custom(format!(
                        "{value} is outside float32's range (write \"inf\" or \"-inf\" for an infinity)"
                    )));
                }
                Ok(F32(rounded))
            }
            fn visit_u64<E: de::Error>(self, value: u64) -> Result<F32, E> {
                Ok(F32(value as f32))
            }
            fn visit_i64<E: de::Error>(self, value: i64) -> Result<F32, E> {
                Ok(F32(value as f32))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<F32, E> {
                F32::parse_text(text).map(F32).ok_or_else(|| {
                    E::custom(format!(
                        "{text:?} is not a float: {}",
                        "use a number, \"nan\", \"inf\", \"-inf\" or \"0x\" and up to 8 hex digits"
                    ))
                })
            }
        }
        deserializer.deserialize_any(F32Visitor)
    }
}

/// One draw: everything it reads and the recorded contents of what it writes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DrawEntry {
    /// A marker or debug name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The API call the draw came from, as text, e.g. `"DrawIndexed(36, 0, 0)"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_call: Option<String>,
    /// The call and its arguments.
    pub call: CallEntry,
    /// The primitive topology.
    pub topology: PrimitiveTopology,
    /// The input layout's elements, in order.
    pub input_layout: Vec<InputElementEntry>,
    /// The bound vertex buffers.
    pub vertex_buffers: Vec<VertexBufferEntry>,
    /// The bound index buffer.
    #[serde(default)]
    pub index_buffer: Option<IndexBufferEntry>,
    /// The vertex shader stage.
    pub vs: StageEntry,
    /// The pixel shader stage.
    pub ps: StageEntry,
    /// Rasterizer state.
    pub rasterizer: RasterizerEntry,
    /// Depth-stencil state.
    pub depth_stencil: DepthStencilStateEntry,
    /// The stencil reference value.
    pub stencil_ref: u32,
    /// Blend state.
    pub blend: BlendEntry,
    /// The blend factor, red to alpha.
    pub blend_factor: [F32; 4],
    /// The sample mask.
    pub sample_mask: u32,
    /// The viewports, in order.
    pub viewports: Vec<ViewportEntry>,
    /// The scissor rectangles, in order.
    pub scissor_rects: Vec<ScissorEntry>,
    /// The bound render targets with their recorded contents.
    pub render_targets: Vec<RenderTargetEntry>,
    /// The bound depth-stencil target with its recorded contents.
    #[serde(default)]
    pub depth_stencil_view: Option<DepthStencilTargetEntry>,
    /// Whether the call was `DrawInstancedIndirect` or `DrawIndexedInstancedIndirect` (version 1.4): `call` is then
    /// the direct call its argument buffer amounted to.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub indirect: bool,
    /// The geometry shader stage (version 1.4); absent or `null` when no geometry program is bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gs: Option<StageEntry>,
    /// The hull shader stage (version 1.4); absent or `null` when no hull program is bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hs: Option<StageEntry>,
    /// The domain shader stage (version 1.4); absent or `null` when no domain program is bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ds: Option<StageEntry>,
    /// Stream output (version 1.4): the declaration the last program before the rasterizer was created with and
    /// the bound buffers; absent or `null` without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream_output: Option<StreamOutputStateEntry>,
    /// The unordered access views bound with the render targets (`OMSetRenderTargetsAndUnorderedAccessViews`,
    /// version 1.4), each with its whole resource before the draw and its window after it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uavs: Vec<UavEntry>,
}

/// A draw's stream output (version 1.4, D3D11.3 section 14): the declaration, the strides and rasterized stream the
/// program was created with (`CreateGeometryShaderWithStreamOutput`), and the buffers bound by `SOSetTargets`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamOutputStateEntry {
    /// The declaration's entries, in order.
    pub declaration: Vec<StreamOutputDeclarationEntry>,
    /// The buffer strides by output slot (`pBufferStrides`, at most 4).
    pub strides: Vec<u32>,
    /// The stream that reaches the rasterizer; 4294967295 (`D3D11_SO_NO_RASTERIZED_STREAM`) for none.
    pub rasterized_stream: u32,
    /// The bound buffers (any order, each slot once).
    pub targets: Vec<StreamOutputTargetEntry>,
}

/// `D3D11_SO_DECLARATION_ENTRY`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamOutputDeclarationEntry {
    /// The stream, 0 to 3.
    pub stream: u32,
    /// The output's semantic name; `null` for a gap (`SemanticName` NULL) of `component_count` components.
    #[serde(default)]
    pub semantic_name: Option<String>,
    /// The output's semantic index.
    pub semantic_index: u32,
    /// The first component written, 0 to 3.
    pub start_component: u8,
    /// How many components, 1 to 4.
    pub component_count: u8,
    /// The buffer slot, 0 to 3.
    pub output_slot: u32,
}

/// A buffer bound for stream output: the whole buffer before and after the draw, and where the draw's first vertex
/// goes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamOutputTargetEntry {
    /// The slot, 0 to 3.
    pub slot: u32,
    /// The whole buffer before the draw.
    pub data: BlobRef,
    /// The byte offset the draw's first vertex is written at: `SOSetTargets`' offset, or for its -1 (append) the
    /// buffer's filled size then, which the writer resolves.
    pub offset: u32,
    /// The whole buffer after the draw as the GPU left it; `null` when not recorded.
    #[serde(default)]
    pub after: Option<BlobRef>,
}

/// The call and its arguments, tagged by `"kind"` with the API's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind")]
#[allow(missing_docs)] // the fields are the API's arguments, documented on `DrawCall`
pub enum CallEntry {
    /// `Draw`.
    Draw { vertex_count: u32, start_vertex: u32 },
    /// `DrawIndexed`.
    DrawIndexed {
        index_count: u32,
        start_index: u32,
        base_vertex: i32,
    },
    /// `DrawInstanced`.
    DrawInstanced {
        vertex_count_per_instance: u32,
        instance_count: u32,
        start_vertex: u32,
        start_instance: u32,
    },
    /// `DrawIndexedInstanced`.
    DrawIndexedInstanced {
        index_count_per_instance: u32,
        instance_count: u32,
        start_index: u32,
        base_vertex: i32,
        start_instance: u32,
    },
    /// `DrawAuto` (version 1.4, 8.9): `vertex_count` is what the stream-output buffer bound as vertex buffer 0 held
    /// (its filled size, less the vertex buffer's offset, over the stride), so that the draw is self-contained.
    DrawAuto { vertex_count: u32 },
}

/// `D3D11_INPUT_ELEMENT_DESC`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)] // D3D11's fields, documented on `InputElementDesc`
pub struct InputElementEntry {
    pub semantic_name: String,
    pub semantic_index: u32,
    pub format: Format,
    pub input_slot: u32,
    pub aligned_byte_offset: u32,
    pub input_slot_class: InputClassification,
    pub instance_data_step_rate: u32,
}

/// A vertex buffer bound to a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VertexBufferEntry {
    /// The input slot, 0 to 31.
    pub slot: u32,
    /// The whole buffer.
    pub data: BlobRef,
    /// Bytes from one vertex to the next.
    pub stride: u32,
    /// Bytes from the buffer's start to vertex 0.
    pub offset: u32,
}

/// The index buffer binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexBufferEntry {
    /// The whole buffer.
    pub data: BlobRef,
    /// `R16_UINT` or `R32_UINT`.
    pub format: IndexFormat,
    /// Bytes from the buffer's start to index 0.
    pub offset: u32,
}

/// A shader stage: its program and its bindings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StageEntry {
    /// The program's DXBC container; `null` when no shader is bound (the vertex stage must have one).
    #[serde(default)]
    pub dxbc: Option<BlobRef>,
    /// Constant buffers by slot.
    pub constant_buffers: Vec<ConstantBufferEntry>,
    /// Shader resource views by slot.
    pub shader_resources: Vec<ShaderResourceEntry>,
    /// Samplers by slot.
    pub samplers: Vec<SamplerEntry>,
}

/// A constant buffer bound to a slot, and the window of it the shader sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConstantBufferEntry {
    /// The slot, 0 to 13.
    pub slot: u32,
    /// The whole buffer.
    pub data: BlobRef,
    /// The first 16-byte constant the shader sees.
    pub first_constant: u32,
    /// How many constants it sees.
    pub num_constants: u32,
}

/// A shader resource view bound to a slot, with its resource.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShaderResourceEntry {
    /// The slot, 0 to 127.
    pub slot: u32,
    /// The view description.
    pub view: ShaderResourceViewEntry,
    /// The resource and all its contents.
    pub resource: ResourceEntry,
}

/// A resource: a buffer, or a texture with every subresource.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ResourceEntry {
    /// A buffer.
    Buffer {
        /// The whole buffer.
        data: BlobRef,
    },
    /// A texture.
    Texture {
        /// Its shape.
        shape: TextureShapeEntry,
        /// Subresource `mip + slice * mip_levels`, in that order.
        subresources: Vec<BlobRef>,
    },
}

/// `D3D11_SHADER_RESOURCE_VIEW_DESC`, flattened: fields a dimension does not use are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)] // D3D11's fields, documented on `ShaderResourceViewDesc`
pub struct ShaderResourceViewEntry {
    pub format: Format,
    pub dimension: SrvDimension,
    pub most_detailed_mip: u32,
    pub mip_levels: u32,
    pub first_array_slice: u32,
    pub array_size: u32,
    pub first_element: u32,
    pub num_elements: u32,
    pub raw: bool,
    pub structure_stride: u32,
}

/// `D3D11_SAMPLER_DESC` bound to a slot.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)] // D3D11's fields, documented on `SamplerDesc`
pub struct SamplerEntry {
    /// The slot, 0 to 15.
    pub slot: u32,
    pub filter: Filter,
    pub address_u: AddressMode,
    pub address_v: AddressMode,
    pub address_w: AddressMode,
    pub mip_lod_bias: F32,
    pub max_anisotropy: u32,
    pub comparison: ComparisonFunc,
    pub border_color: [F32; 4],
    pub min_lod: F32,
    pub max_lod: F32,
}

/// The shape of a texture (`D3D11_TEXTURE{1D,2D,3D}_DESC`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)] // documented on `TextureShape`
pub struct TextureShapeEntry {
    pub dimension: ResourceDimension,
    pub format: Format,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub array_size: u32,
    pub mip_levels: u32,
    pub sample_count: u32,
}

/// `D3D11_RASTERIZER_DESC`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)] // D3D11's fields, documented on `RasterizerDesc`
pub struct RasterizerEntry {
    pub fill_mode: FillMode,
    pub cull_mode: CullMode,
    pub front_counter_clockwise: bool,
    pub depth_bias: i32,
    pub depth_bias_clamp: F32,
    pub slope_scaled_depth_bias: F32,
    pub depth_clip_enable: bool,
    pub scissor_enable: bool,
    pub multisample_enable: bool,
    pub antialiased_line_enable: bool,
    /// Version 1.2 (`D3D11_RASTERIZER_DESC1`); absent before: 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub forced_sample_count: u32,
}

/// `D3D11_DEPTH_STENCILOP_DESC`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)] // D3D11's fields, documented on `StencilFaceDesc`
pub struct StencilFaceEntry {
    pub fail: StencilOp,
    pub depth_fail: StencilOp,
    pub pass: StencilOp,
    pub func: ComparisonFunc,
}

/// `D3D11_DEPTH_STENCIL_DESC`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)] // D3D11's fields, documented on `DepthStencilDesc`
pub struct DepthStencilStateEntry {
    pub depth_enable: bool,
    pub depth_write_mask: DepthWriteMask,
    pub depth_func: ComparisonFunc,
    pub stencil_enable: bool,
    pub stencil_read_mask: u8,
    pub stencil_write_mask: u8,
    pub front_face: StencilFaceEntry,
    pub back_face: StencilFaceEntry,
}

/// `D3D11_RENDER_TARGET_BLEND_DESC1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)] // D3D11's fields, documented on `RenderTargetBlendDesc`
pub struct RenderTargetBlendEntry {
    pub blend_enable: bool,
    pub logic_op_enable: bool,
    pub src_blend: Blend,
    pub dest_blend: Blend,
    pub blend_op: BlendOp,
    pub src_blend_alpha: Blend,
    pub dest_blend_alpha: Blend,
    pub blend_op_alpha: BlendOp,
    pub logic_op: LogicOp,
    pub render_target_write_mask: u8,
}

/// `D3D11_BLEND_DESC1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)] // D3D11's fields, documented on `BlendDesc`
pub struct BlendEntry {
    pub alpha_to_coverage_enable: bool,
    pub independent_blend_enable: bool,
    /// Exactly [`RENDER_TARGET_SLOTS`] entries, one per render target slot.
    pub render_target: [RenderTargetBlendEntry; RENDER_TARGET_SLOTS],
}

/// `D3D11_VIEWPORT`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)] // D3D11's fields, documented on `Viewport`
pub struct ViewportEntry {
    pub x: F32,
    pub y: F32,
    pub width: F32,
    pub height: F32,
    pub min_depth: F32,
    pub max_depth: F32,
}

/// `D3D11_RECT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)] // D3D11's fields, documented on `Scissor`
pub struct ScissorEntry {
    pub left: i32,
    pub top: i32,
    pub right: i32,
    pub bottom: i32,
}

/// `D3D11_RENDER_TARGET_VIEW_DESC`, flattened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)] // D3D11's fields, documented on `RenderTargetViewDesc`
pub struct RenderTargetViewEntry {
    pub format: Format,
    pub dimension: RtvDimension,
    pub mip_slice: u32,
    pub first_array_slice: u32,
    pub array_size: u32,
}

/// `D3D11_DEPTH_STENCIL_VIEW_DESC`, flattened, with its read-only flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)] // D3D11's fields, documented on `DepthStencilViewDesc`
pub struct DepthStencilViewEntry {
    pub format: Format,
    pub dimension: DsvDimension,
    pub mip_slice: u32,
    pub first_array_slice: u32,
    pub array_size: u32,
    pub read_only_depth: bool,
    pub read_only_stencil: bool,
}

/// A render target bound to a slot: its view, the shape of its resource, and the viewed surface's contents before
/// and after the draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenderTargetEntry {
    /// The slot, 0 to 7.
    pub slot: u32,
    /// The view description.
    pub view: RenderTargetViewEntry,
    /// The shape of the whole resource the view sees.
    pub resource: TextureShapeEntry,
    /// The viewed surface before the draw.
    pub before: BlobRef,
    /// The viewed surface after the draw, as the GPU left it; `null` when not recorded.
    #[serde(default)]
    pub after: Option<BlobRef>,
}

/// The depth-stencil target: its view, the shape of its resource, and the viewed surface before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepthStencilTargetEntry {
    /// The view description.
    pub view: DepthStencilViewEntry,
    /// The shape of the whole resource the view sees.
    pub resource: TextureShapeEntry,
    /// The viewed surface before the draw.
    pub before: BlobRef,
    /// The viewed surface after the draw, as the GPU left it; `null` when not recorded.
    #[serde(default)]
    pub after: Option<BlobRef>,
}

use serde::de::DeserializeOwned;
use serde_json::Value;

/// serde's message when `value` does not read as a `T`.
fn check<T: DeserializeOwned>(value: &Value) -> Option<String> {
    serde_json::from_value::<T>(value.clone()).err().map(|e| e.to_string())
}
/// The first item of a list (or the list) that does not read as `T`s, with its path.
fn check_list<T: DeserializeOwned>(path: &str, value: &Value) -> Option<(String, String)> {
    if let Value::Array(items) = value {
        for (index, item) in items.iter().enumerate() {
            if let Some(message) = check::<T>(item) {
                return Some((format!("{path}[{index}]"), message));
            }
        }
    }
    check::<Vec<T>>(value).map(|message| (path.to_owned(), message))
}
/// The first part of a stage that does not read, with its path.
fn check_stage(path: &str, value: &Value) -> Option<(String, String)> {
    if let Value::Object(stage) = value {
        let lists = [
            (
                "constant_buffers",
                check_list::<ConstantBufferEntry> as fn(&str, &Value) -> _,
            ),
            ("shader_resources", check_list::<ShaderResourceEntry>),
            ("samplers", check_list::<SamplerEntry>),
        ];
        for (key, checker) in lists {
            if let Some(item) = stage.get(key)
                && let Some(found) = checker(&format!("{path} {key}"), item)
            {
                return Some(found);
            }
        }
        if let Some(dxbc) = stage.get("dxbc")
            && let Some(message) = check::<Option<BlobRef>>(dxbc)
        {
            return Some((format!("{path} dxbc"), message));
        }
    }
    check::<StageEntry>(value).map(|message| (path.to_owned(), message))
}

/// Finds where in a draw a manifest that did not deserialize goes wrong: the path of the first part (a top-level
/// field, a list item, a stage's list item) that does not deserialize on its own, with serde's message for it.
pub(crate) fn locate_draw_error(draw: &serde_json::Value) -> Option<(String, String)> {
    let Value::Object(fields) = draw else {
        return check::<DrawEntry>(draw).map(|message| (String::new(), message));
    };
    type Checker = fn(&str, &Value) -> Option<(String, String)>;
    fn one<T: DeserializeOwned>(path: &str, value: &Value) -> Option<(String, String)> {
        check::<T>(value).map(|message| (path.to_owned(), message))
    }
    let parts: &[(&str, Checker)] = &[
        ("name", one::<Option<String>>),
        ("api_call", one::<Option<String>>),
        ("call", one::<CallEntry>),
        ("topology", one::<PrimitiveTopology>),
        ("input_layout", check_list::<InputElementEntry>),
        ("vertex_buffers", check_list::<VertexBufferEntry>),
        ("index_buffer", one::<Option<IndexBufferEntry>>),
        ("vs", check_stage),
        ("ps", check_stage),
        ("rasterizer", one::<RasterizerEntry>),
        ("depth_stencil", one::<DepthStencilStateEntry>),
        ("stencil_ref", one::<u32>),
        ("blend", one::<BlendEntry>),
        ("blend_factor", one::<[F32; 4]>),
        ("sample_mask", one::<u32>),
        ("viewports", check_list::<ViewportEntry>),
        ("scissor_rects", check_list::<ScissorEntry>),
        ("render_targets", check_list::<RenderTargetEntry>),
        ("depth_stencil_view", one::<Option<DepthStencilTargetEntry>>),
    ];
    for &(key, checker) in parts {
        if let Some(value) = fields.get(key)
            && let Some(found) = checker(key, value)
        {
            return Some(found);
        }
    }
    check::<DrawEntry>(draw).map(|message| (String::new(), message))
}

/// Whether a count is 0 (left out of the manifest).
fn is_zero(value: &u32) -> bool {
    *value == 0
}

/// Finds where in a resolve entry a manifest that did not deserialize goes wrong, as [`locate_draw_error`] does for
/// a draw: the path of the first field (`source data`, `destination after`) that does not deserialize.
pub(crate) fn locate_resolve_error(resolve: &serde_json::Value) -> Option<(String, String)> {
    use serde::de::DeserializeOwned;
    use serde_json::Value;

    fn one<T: DeserializeOwned>(path: &str, value: &Value) -> Option<(String, String)> {
        serde_json::from_value::<T>(value.clone())
            .err()
            .map(|e| (path.to_owned(), e.to_string()))
    }
    type Checker = fn(&str, &Value) -> Option<(String, String)>;
    if let Value::Object(fields) = resolve {
        let parts: &[(&str, Checker)] = &[
            ("before_draw", one::<u64>),
            ("api_call", one::<Option<String>>),
            ("format", one::<Format>),
        ];
        for &(key, checker) in parts {
            if let Some(value) = fields.get(key)
                && let Some(found) = checker(key, value)
            {
                return Some(found);
            }
        }
        let sides: &[(&str, &[(&str, Checker)])] = &[
            (
                "source",
                &[
                    ("resource", one::<TextureShapeEntry>),
                    ("subresource", one::<u32>),
                    ("data", one::<BlobRef>),
                ],
            ),
            (
                "destination",
                &[
                    ("resource", one::<TextureShapeEntry>),
                    ("subresource", one::<u32>),
                    ("before", one::<BlobRef>),
                    ("after", one::<Option<BlobRef>>),
                ],
            ),
        ];
        for &(side, parts) in sides {
            let Some(Value::Object(side_fields)) = fields.get(side) else {
                continue;
            };
            for &(key, checker) in parts {
                if let Some(value) = side_fields.get(key)
                    && let Some(found) = checker(&format!("{side} {key}"), value)
                {
                    return Some(found);
                }
            }
        }
        for (side, found) in [
            ("source", one::<ResolveSourceEntry> as Checker),
            ("destination", one::<ResolveDestinationEntry>),
        ] {
            if let Some(value) = fields.get(side)
                && let Some(found) = found(side, value)
            {
                return Some(found);
            }
        }
    }
    one::<ResolveEntry>("", resolve)
}

/// Finds where in a dispatch entry a manifest that did not deserialize goes wrong, as [`locate_draw_error`] does for
/// a draw: the path of the first part (`groups`, `cs constant_buffers[1]`, `uavs[0] view`) that does not deserialize.
pub(crate) fn locate_dispatch_error(dispatch: &Value) -> Option<(String, String)> {
    fn one<T: DeserializeOwned>(path: &str, value: &Value) -> Option<(String, String)> {
        check::<T>(value).map(|message| (path.to_owned(), message))
    }
    type Checker = fn(&str, &Value) -> Option<(String, String)>;
    if let Value::Object(fields) = dispatch {
        let parts: &[(&str, Checker)] = &[
            ("before_draw", one::<u64>),
            ("before_resolve", one::<u64>),
            ("name", one::<Option<String>>),
            ("api_call", one::<Option<String>>),
            ("groups", one::<[u32; 3]>),
            ("cs", check_stage),
        ];
        for &(key, checker) in parts {
            if let Some(value) = fields.get(key)
                && let Some(found) = checker(key, value)
            {
                return Some(found);
            }
        }
        if let Some(Value::Array(uavs)) = fields.get("uavs") {
            let parts: &[(&str, Checker)] = &[
                ("slot", one::<u32>),
                ("view", one::<UnorderedAccessViewEntry>),
                ("resource", one::<ResourceEntry>),
                ("initial_count", one::<Option<u32>>),
                ("after", one::<Option<BlobRef>>),
                ("counter_after", one::<Option<u32>>),
            ];
            for (index, uav) in uavs.iter().enumerate() {
                if let Value::Object(uav_fields) = uav {
                    for &(key, checker) in parts {
                        if let Some(value) = uav_fields.get(key)
                            && let Some(found) = checker(&format!("uavs[{index}] {key}"), value)
                        {
                            return Some(found);
                        }
                    }
                }
                if let Some(found) = one::<UavEntry>(&format!("uavs[{index}]"), uav) {
                    return Some(found);
                }
            }
        }
        if let Some(value) = fields.get("uavs")
            && let Some(found) = one::<Vec<UavEntry>>("uavs", value)
        {
            return Some(found);
        }
    }
    one::<DispatchEntry>("", dispatch)
}
