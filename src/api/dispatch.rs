//! What one D3D11 `Dispatch` depends on (section 18): the compute program, its constant buffers, shader resource
//! views and samplers, its unordered access views with their contents (5.3.9), and the thread-group counts.

use std::sync::Arc;

use super::draw::StageBindings;
pub use super::resource::{UnorderedAccessViewBinding, UnorderedAccessViewDesc};

/// The most thread groups a dispatch has in one dimension (18.6.5: `D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION`,
/// 65535).
pub const MAX_THREAD_GROUPS_PER_DIMENSION: u32 = 65535;

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
