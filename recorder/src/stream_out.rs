//! The stream-output bindings of every context, as `SOSetTargets` made them: D3D11 gives the buffers back
//! (`SOGetTargets`) but not the offsets, and an offset decides where a draw's first vertex goes (D3D11.3 14.4: an
//! explicit offset for the first draw after the binding; -1, `D3D11_SO_APPEND`, and every later draw through the
//! same binding append at the buffer's filled size). The hook keeps them at every call, capture or not — programs
//! bind stream output rarely, so this costs nothing noticeable — with a sequence number, so that a capture can tell
//! the bindings made before it started (which draws it did not see may have appended through).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

/// The offset that appends (`D3D11_SO_APPEND`, the API's -1).
pub const APPEND: u32 = u32::MAX;

/// One slot's binding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Binding {
    /// The buffer (a raw `ID3D11Buffer`), 0 for none.
    pub buffer: usize,
    /// The offset as given, or [`APPEND`] once a draw has streamed through the binding.
    pub offset: u32,
    /// When it was made: a value of [`sequence`].
    pub sequence: u64,
}

/// The last sequence number given.
static SEQUENCE: AtomicU64 = AtomicU64::new(0);

/// The four slots of each context, by the context's address.
static BINDINGS: Mutex<Option<HashMap<usize, [Binding; 4]>>> = Mutex::new(None);

/// The sequence number of the latest binding (a capture notes it when it starts).
pub fn sequence() -> u64 {
    SEQUENCE.load(Ordering::Relaxed)
}

/// `SOSetTargets` on `context`: `buffers` (raw pointers, 0 for none) in slots 0 up, the rest unbound; `offsets`
/// as passed (none: 0 each, as the runtime takes a null array).
pub fn set_targets(context: usize, buffers: &[usize], offsets: Option<&[u32]>) {
    let sequence = SEQUENCE.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
    let mut slots = [Binding::default(); 4];
    for (slot, binding) in slots.iter_mut().enumerate() {
        let buffer = buffers.get(slot).copied().unwrap_or(0);
        let offset = offsets.and_then(|o| o.get(slot)).copied().unwrap_or(0);
        *binding = Binding {
            buffer,
            offset,
            sequence,
        };
    }
    let mut bindings = BINDINGS.lock().unwrap_or_else(PoisonError::into_inner);
    bindings.get_or_insert_with(HashMap::new).insert(context, slots);
}

/// The bindings of `context`.
pub fn bindings(context: usize) -> [Binding; 4] {
    let bindings = BINDINGS.lock().unwrap_or_else(PoisonError::into_inner);
    bindings
        .as_ref()
        .and_then(|b| b.get(&context).copied())
        .unwrap_or_default()
}

/// Marks a draw streamed through the bindings of `context`: later draws append (14.4).
pub fn streamed(context: usize) {
    let mut bindings = BINDINGS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(slots) = bindings.as_mut().and_then(|b| b.get_mut(&context)) {
        for slot in slots.iter_mut() {
            slot.offset = APPEND;
        }
    }
}
