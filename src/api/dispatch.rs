//! What one D3D11 `Dispatch` depends on (section 18): the compute program, its constant buffers, shader resource
//! views and samplers, its unordered access views with their contents (5.3.9), and the thread-group counts.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::draw::StageBindings;
use super::enums::UavDimension;
use super::resource::Resource;
use crate::format::Format;

/// The most thread groups a dispatch has in one dimension (18.6.5: `D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION`,
/// 65535).
pub const MAX_THREAD_GROUPS_PER_DIMENSION: u32 = 65535;

/// How an unordered access view sees its resource (`D3D11_UNORDERED_ACCESS_VIEW_DESC`; 5.3.9). Fields a dimension
/// does not use are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct UnorderedAccessViewDesc {
    /// The format the view reads and writes (typed views); `R32_TYPELESS` for raw views, `UNKNOWN` for structured.
    pub format: Format,
    /// The view's dimension.
    pub dimension: UavDimension,
    /// Textures: the one mip level the view sees.
    pub mip_slice: u32,
    /// Arrays: the first slice it sees; 3D textures: the first depth slice.
    pub first_array_slice: u32,
    /// Arrays: how many slices; 3D textures: how many depth slices (`u32::MAX`, -1 in the API, for all).
    pub array_size: u32,
    /// Buffers: the first element it sees.
    pub first_element: u32,
    /// Buffers: how many elements it sees.
    pub num_elements: u32,
    /// Buffers: a raw (byte address) view (`D3D11_BUFFER_UAV_FLAG_RAW`).
    pub raw: bool,
    /// Structured buffers: an append/consume view (`D3D11_BUFFER_UAV_FLAG_APPEND`).
    pub append: bool,
    /// Structured buffers: a view with a counter (`D3D11_BUFFER_UAV_FLAG_COUNTER`).
    pub counter: bool,
    /// Structured buffers: the structure stride in bytes (the buffer's `StructureByteStride`; 0 otherwise).
    pub structure_stride: u32,
}

impl Default for UnorderedAccessViewDesc {
    fn default() -> Self {
        Self {
            format: Format::Unknown,
            dimension: UavDimension::Unknown,
            mip_slice: 0,
            first_array_slice: 0,
            array_size: 1,
            first_element: 0,
            num_elements: 0,
            raw: false,
            append: false,
            counter: false,
            structure_stride: 0,
        }
    }
}

/// An unordered access view bound to a slot: the resource (its contents when the dispatch or draw starts), how the
/// view sees it, and the hidden counter's initial value (`pUAVInitialCounts`; `None` keeps the counter the view had,
/// which a replay knows only as 0).
#[derive(Clone, Debug, PartialEq)]
pub struct UnorderedAccessViewBinding {
    /// The resource.
    pub resource: Arc<Resource>,
    /// How the view sees it.
    pub desc: UnorderedAccessViewDesc,
    /// The counter's value when bound.
    pub initial_count: Option<u32>,
}

/// Everything one `Dispatch` depends on.
#[derive(Clone, Debug, PartialEq)]
pub struct DispatchState {
    /// The compute program's DXBC.
    pub compute_shader: Arc<[u8]>,
    /// Its constant buffers, shader resource views and samplers.
    pub bindings: StageBindings,
    /// `u0`..: its unordered access views.
    pub uavs: Vec<Option<UnorderedAccessViewBinding>>,
    /// Thread groups in X, Y and Z (`ThreadGroupCountX/Y/Z`).
    pub groups: [u32; 3],
}
