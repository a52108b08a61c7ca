//! Memory a program writes: unordered access views (`u#`, 5.3.9) and a thread group's shared memory (`g#`, 18.6.3).
//!
//! An [`UnorderedAccessView`] holds the bytes its view sees (a buffer's elements, or one mip level's slices of a
//! texture, rows packed) behind a lock, so that a batch's lanes, and the batches of a thread group, read and write it
//! in the order the run loop executes them; [`SharedMemory`] holds one group's `g#` words. Both answer out-of-range
//! accesses as the instructions of 22.4.8-13 and 22.17 say:
//!
//! - a load past the end gives 0 per 32-bit component (`ld_raw`, `ld_structured` on `u#`, `ld_uav_typed` as `ld`);
//! - a store or atomic past the end writes nothing (`store_*`, `atomic_*`: "nothing is written to memory");
//! - what the spec leaves undefined is given a fixed answer here, documented where it is made: an immediate atomic
//!   past the end returns 0 ("an undefined result"), a structured access whose byte offset passes the stride reads 0
//!   and writes nothing (the spec makes the whole UAV undefined), and `g#` accesses past their declaration read 0 and
//!   write nothing (the spec makes all shared memory undefined).

use std::cell::RefCell;
use std::sync::Mutex;

use crate::api::dispatch::UnorderedAccessViewBinding;
use crate::api::enums::UavDimension;
use crate::api::resource::Resource;
use crate::dxbc::program::ResourceDimension;
use crate::format::{Format, TexelCodec};
use crate::{Error, Result};

use super::executable::UavKind;

/// How a view addresses its memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UavAccess {
    /// Typed: elements of a format, addressed by coordinates (buffer index; x, slice; x, y; x, y, slice; x, y, z).
    Typed,
    /// Raw (byte address): 32-bit words addressed by byte offset.
    Raw,
    /// Structured: structures of `stride` bytes addressed by index and byte offset.
    Structured {
        /// The structure size in bytes.
        stride: u32,
    },
}

/// The hidden counter of an append or counter structured view (`D3D11_BUFFER_UAV_FLAG_APPEND` / `_COUNTER`,
/// 22.17.17-18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UavCounter {
    /// No counter: `imm_atomic_alloc`/`consume` on the view are an error.
    None,
    /// An append/consume buffer's counter.
    Append,
    /// A counter buffer's counter.
    Counter,
}

/// The atomic operations of 22.17.8-28 on one 32-bit word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// Bitwise AND.
    And,
    /// Bitwise OR.
    Or,
    /// Bitwise XOR.
    Xor,
    /// Integer add, wrapping ("insensitive to sign").
    Add,
    /// Signed maximum.
    SignedMax,
    /// Signed minimum.
    SignedMin,
    /// Unsigned maximum.
    UnsignedMax,
    /// Unsigned minimum.
    UnsignedMin,
    /// Exchange: the word becomes the value.
    Exchange,
    /// Compare and exchange: the word becomes the second value if it equals the first.
    CompareExchange,
}

impl AtomicOp {
    /// The word after the operation on `old` with `value` (and `with`, the compare-exchange's new value).
    pub fn apply(self, old: u32, value: u32, with: u32) -> u32 {
        match self {
            AtomicOp::And => old & value,
            AtomicOp::Or => old | value,
            AtomicOp::Xor => old ^ value,
            AtomicOp::Add => old.wrapping_add(value),
            AtomicOp::SignedMax => (old as i32).max(value as i32) as u32,
            AtomicOp::SignedMin => (old as i32).min(value as i32) as u32,
            AtomicOp::UnsignedMax => old.max(value),
            AtomicOp::UnsignedMin => old.min(value),
            AtomicOp::Exchange => value,
            AtomicOp::CompareExchange => {
                if old == value {
                    with
                } else {
                    old
                }
            }
        }
    }
}

/// An unordered access view's memory, as a program sees it: the elements of the view's window, a typed view's
/// format, its counter.
#[derive(Debug)]
pub struct UnorderedAccessView {
    dimension: UavDimension,
    access: UavAccess,
    format: Format,
    codec: Option<TexelCodec>,
    /// Width in elements (buffers: the element count), height, depth or array slices.
    size: [u32; 3],
    element_bytes: u32,
    counter_kind: UavCounter,
    memory: Mutex<Memory>,
}

/// The locked part of a view.
#[derive(Debug)]
struct Memory {
    bytes: Vec<u8>,
    counter: u32,
    /// Who wrote what, when the view follows the order of its writes ([`UnorderedAccessView::track_order`]).
    order: Option<OrderLog>,
    /// Every write to one element, when the view watches one ([`UnorderedAccessView::watch`]).
    watch: Option<WatchLog>,
}

impl Memory {
    /// The watched element's bytes now, when a write of `len` bytes at byte `at` reaches it (before the write).
    fn watched_before(&self, at: usize, len: usize) -> Option<Vec<u8>> {
        let watch = self.watch.as_ref().filter(|w| !w.counter)?;
        let end = at.checked_add(len)?;
        (at < watch.range.end && watch.range.start < end)
            .then(|| self.bytes.get(watch.range.clone()).map(<[u8]>::to_vec))
            .flatten()
    }

    /// Records a write by `writer` that reached the watched element, which held `before` (from
    /// [`Memory::watched_before`]).
    fn watched_after(&mut self, before: Option<Vec<u8>>, writer: Writer, operation: WriteOperation) {
        let Some(before) = before else {
            return;
        };
        let Some(watch) = self.watch.as_mut() else {
            return;
        };
        if watch.writes.len() >= MAX_WATCHED_WRITES {
            watch.not_kept = watch.not_kept.saturating_add(1);
            return;
        }
        let after = self
            .bytes
            .get(watch.range.clone())
            .map(<[u8]>::to_vec)
            .unwrap_or_default();
        watch.writes.push(WatchedWrite {
            writer,
            operation,
            before,
            after,
        });
    }
}

impl Memory {
    /// Records a use of the hidden counter by `writer` (it held `old`), when the counter is watched.
    fn watched_count(&mut self, writer: Writer, old: u32, increment: bool) {
        let new = self.counter;
        let Some(watch) = self.watch.as_mut().filter(|w| w.counter) else {
            return;
        };
        if watch.writes.len() >= MAX_WATCHED_WRITES {
            watch.not_kept = watch.not_kept.saturating_add(1);
            return;
        }
        watch.writes.push(WatchedWrite {
            writer,
            operation: WriteOperation::Counter { increment },
            before: old.to_le_bytes().to_vec(),
            after: new.to_le_bytes().to_vec(),
        });
    }
}

/// The most writes to a watched element a view keeps ([`WatchLog::writes`]); past it they are counted in
/// [`WatchLog::not_kept`] (an Iridia budget: a dispatch of a million atomic adds to one counter keeps the first).
pub const MAX_WATCHED_WRITES: usize = 256;

/// What a write to a watched element was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteOperation {
    /// A store (`store_uav_typed`, `store_raw`, `store_structured`: 22.4.9, 22.4.11, 22.4.13).
    Store,
    /// An atomic operation (`atomic_*` or `imm_atomic_*`, 22.17.8-28), which writes even when the value stays.
    Atomic(AtomicOp),
    /// The hidden counter taken (`imm_atomic_alloc`, 22.17.17: incremented) or given back (`imm_atomic_consume`,
    /// 22.17.18: decremented), when the counter is watched.
    Counter {
        /// Whether it was incremented (else decremented).
        increment: bool,
    },
}

/// One write to a watched element, in the order the run made them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatchedWrite {
    /// Who wrote, and with which instruction.
    pub writer: Writer,
    /// What the write was.
    pub operation: WriteOperation,
    /// The element's bytes before it.
    pub before: Vec<u8>,
    /// The element's bytes after it.
    pub after: Vec<u8>,
}

/// Every write to one element of a view ([`UnorderedAccessView::watch`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WatchLog {
    /// The element's bytes in the view's window (empty when the counter is watched).
    pub range: std::ops::Range<usize>,
    /// Whether the view's hidden counter is watched instead of an element: its writes hold its value before and
    /// after as 4 little-endian bytes.
    pub counter: bool,
    /// The writes, in order, up to [`MAX_WATCHED_WRITES`].
    pub writes: Vec<WatchedWrite>,
    /// Writes past [`MAX_WATCHED_WRITES`], not kept.
    pub not_kept: u64,
}

/// An invocation writing to a view, as far as the order of its writes goes: invocations of a dispatch run in an order
/// the spec leaves open (18.6.6: thread groups and threads "may execute in any order"), except that one invocation's
/// accesses happen in its program order and a group's threads past a barrier (`sync_*_t`, 22.17.7) follow their
/// writes before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Writer {
    /// The invocation (a dispatch's thread, numbered across the dispatch).
    pub invocation: u64,
    /// Its thread group.
    pub group: u64,
    /// The group-wide barriers its group had passed.
    pub epoch: u32,
    /// The instruction making the access (its index in the program, declarations included): what a watched element's
    /// writes name ([`WatchedWrite`]); the order does not depend on it.
    pub instruction: u32,
}

impl Writer {
    /// Whether the spec orders this writer's access after (or before) `other`'s.
    fn ordered_with(&self, other: &Writer) -> bool {
        self.invocation == other.invocation || (self.group == other.group && self.epoch != other.epoch)
    }
}

/// The most elements (words of a raw or structured view, texels of a typed one) a view follows the writers of; past
/// it the view's [`OrderDependence`] is incomplete (an Iridia budget: one map entry an element).
pub const MAX_ORDERED_ELEMENTS: usize = 1 << 20;

/// The last writer of each element a view had written, and the elements whose final value depends on the order.
#[derive(Debug, Default)]
struct OrderLog {
    last: std::collections::HashMap<usize, Writer>,
    dependent: std::collections::BTreeSet<usize>,
    counter_user: Option<Writer>,
    counter_unordered: bool,
    incomplete: bool,
}

impl OrderLog {
    /// `writer` writes the element at byte `at`; `changed` says whether its value differs from what is there.
    fn write(&mut self, at: usize, writer: Writer, changed: bool) {
        let room = self.last.len() < MAX_ORDERED_ELEMENTS;
        match self.last.get_mut(&at) {
            Some(last) => {
                if changed && !writer.ordered_with(last) {
                    self.dependent.insert(at);
                }
                *last = writer;
            }
            None if room => {
                self.last.insert(at, writer);
            }
            None => self.incomplete = true,
        }
    }

    /// `writer` takes a slot of the hidden counter.
    fn count(&mut self, writer: Writer) {
        match self.counter_user {
            Some(user) if !writer.ordered_with(&user) => self.counter_unordered = true,
            Some(_) => {}
            None => self.counter_user = Some(writer),
        }
    }
}

/// What a view's contents after a dispatch owe to an order the spec leaves open (18.6.6): the replay runs one order
/// (groups in order, threads in flattened order); another device's may end with other values there.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct OrderDependence {
    /// Byte offsets (in the view's window) of the elements written with different values by invocations the spec
    /// does not order: each ends as whichever wrote last. Plain stores and exchanges count; an atomic operation that
    /// commutes (add, and, or, xor, min, max) does not, its result being the same in any order.
    pub elements: Vec<u64>,
    /// Whether invocations the spec does not order took slots of the view's hidden counter (`imm_atomic_alloc`,
    /// `imm_atomic_consume`): which element each one got, and so where its writes landed, is unspecified.
    pub counter: bool,
    /// Whether more elements were written than [`MAX_ORDERED_ELEMENTS`]: `elements` is then incomplete.
    pub incomplete: bool,
}

impl OrderDependence {
    /// Whether nothing in the view depends on the order.
    pub fn is_none(&self) -> bool {
        self.elements.is_empty() && !self.counter && !self.incomplete
    }
}

impl UnorderedAccessView {
    /// A view of `bytes`: `size` is (elements, 1, 1) for a buffer, (width, slices, 1) for a 1D array, (width,
    /// height, slices or depth) for 2D arrays and 3D textures. A typed view decodes and encodes `format`; a raw view
    /// sees 32-bit words, a structured one structures of `stride` bytes. `bytes` must hold exactly the elements.
    pub fn new(
        dimension: UavDimension,
        access: UavAccess,
        format: Format,
        size: [u32; 3],
        bytes: Vec<u8>,
        counter: UavCounter,
        initial_count: u32,
    ) -> Result<UnorderedAccessView> {
        let what = "unordered access view";
        let (codec, element_bytes) = match access {
            UavAccess::Typed => {
                let codec = TexelCodec::new(format)?;
                if codec.block_size() != (1, 1) {
                    return Err(Error::new(what, format!("{format} cannot be a UAV's format (5.3.9)")));
                }
                let bytes = u32::try_from(codec.element_bytes()).map_err(|_| Error::new(what, "element size"))?;
                (Some(codec), bytes)
            }
            UavAccess::Raw => (None, 4),
            UavAccess::Structured { stride } => {
                if stride == 0 || stride % 4 != 0 {
                    return Err(Error::new(
                        what,
                        format!("a structure stride of {stride} bytes is not a positive multiple of 4"),
                    ));
                }
                (None, stride)
            }
        };
        if dimension != UavDimension::Buffer && access != UavAccess::Typed {
            return Err(Error::new(what, "raw and structured views are buffer views (5.3.9)"));
        }
        if counter != UavCounter::None && !matches!(access, UavAccess::Structured { .. }) {
            return Err(Error::new(
                what,
                "only a structured buffer view has an append or counter flag",
            ));
        }
        let expected = size
            .iter()
            .fold(u64::from(element_bytes), |a, s| a.saturating_mul(u64::from(*s)));
        if u64::try_from(bytes.len()).ok() != Some(expected) {
            return Err(Error::new(
                what,
                format!(
                    "{} bytes given for {}x{}x{} elements of {element_bytes} bytes",
                    bytes.len(),
                    size[0],
                    size[1],
                    size[2]
                ),
            ));
        }
        Ok(UnorderedAccessView {
            dimension,
            access,
            format,
            codec,
            size,
            element_bytes,
            counter_kind: counter,
            memory: Mutex::new(Memory {
                bytes,
                counter: initial_count,
                order: None,
                watch: None,
            }),
        })
    }

    /// The view's dimension.
    pub fn dimension(&self) -> UavDimension {
        self.dimension
    }

    /// How it addresses its memory.
    pub fn access(&self) -> UavAccess {
        self.access
    }

    /// A typed view's format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Its counter's kind.
    pub fn counter_kind(&self) -> UavCounter {
        self.counter_kind
    }

    /// (width or elements, height or slices, depth or slices).
    pub fn size(&self) -> [u32; 3] {
        self.size
    }

    /// What `bufinfo` reports (22.4.1): a typed buffer's elements, a structured buffer's structures, a raw buffer's
    /// bytes ("the number of bytes in the view"); 0 for a texture.
    pub fn elements(&self) -> u32 {
        match (self.dimension, self.access) {
            (UavDimension::Buffer, UavAccess::Raw) => self.size[0].saturating_mul(4),
            (UavDimension::Buffer, _) => self.size[0],
            _ => 0,
        }
    }

    /// Makes the view follow who writes each of its elements from now on, for [`UnorderedAccessView::order_dependence`].
    pub fn track_order(&self) {
        let mut memory = self.lock();
        if memory.order.is_none() {
            memory.order = Some(OrderLog::default());
        }
    }

    /// Makes the view record every write to the element at `range` (bytes of its window, as
    /// [`UnorderedAccessView::element_range`] gives them) from now on, for [`UnorderedAccessView::watched`].
    pub fn watch(&self, range: std::ops::Range<usize>) {
        self.lock().watch = Some(WatchLog {
            range,
            counter: false,
            writes: Vec::new(),
            not_kept: 0,
        });
    }

    /// Makes the view record every use of its hidden counter (`imm_atomic_alloc`, `imm_atomic_consume`) from now on,
    /// for [`UnorderedAccessView::watched`], instead of an element's writes.
    pub fn watch_counter(&self) {
        self.lock().watch = Some(WatchLog {
            range: 0..0,
            counter: true,
            writes: Vec::new(),
            not_kept: 0,
        });
    }

    /// The writes to the watched element since [`UnorderedAccessView::watch`]; `None` when none is watched.
    pub fn watched(&self) -> Option<WatchLog> {
        self.lock().watch.clone()
    }

    /// The bytes of the window an access at `address` reaches, as the view's instructions address it: a typed
    /// view's element at coordinates (buffer index; x, slice; x, y; x, y, slice or depth), a raw view's 32-bit word
    /// at byte offset `address[0]` (aligned down to 4), a structured view's word at structure `address[0]`, byte
    /// offset `address[1]`; `None` outside the view.
    pub fn element_range(&self, address: [u32; 3]) -> Option<std::ops::Range<usize>> {
        let (at, len) = match self.access {
            UavAccess::Typed => (self.element_offset(address)?, usize::try_from(self.element_bytes).ok()?),
            UavAccess::Raw | UavAccess::Structured { .. } => (self.word_address([address[0], address[1]], 0)?, 4),
        };
        Some(at..at.checked_add(len)?)
    }

    /// What the view's contents owe to the order of its writers since [`UnorderedAccessView::track_order`]; `None`
    /// when it does not follow them.
    pub fn order_dependence(&self) -> Option<OrderDependence> {
        let memory = self.lock();
        let log = memory.order.as_ref()?;
        Some(OrderDependence {
            elements: log.dependent.iter().map(|&at| at as u64).collect(),
            counter: log.counter_unordered,
            incomplete: log.incomplete,
        })
    }

    /// The bytes and the counter now (after a dispatch, what it wrote).
    pub fn contents(&self) -> (Vec<u8>, u32) {
        let memory = self.lock();
        (memory.bytes.clone(), memory.counter)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Memory> {
        // A poisoned lock only means a panic elsewhere; the bytes are still what was written.
        self.memory.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The byte offset of the element at `address` (coordinates as the dimension takes them), or `None` outside.
    fn element_offset(&self, address: [u32; 3]) -> Option<usize> {
        let [w, h, d] = self.size;
        let [x, y, z] = match self.dimension {
            UavDimension::Buffer | UavDimension::Texture1D => [address[0], 0, 0],
            UavDimension::Texture1DArray => [address[0], address[1], 0],
            UavDimension::Texture2D => [address[0], address[1], 0],
            UavDimension::Texture2DArray | UavDimension::Texture3D => address,
            UavDimension::Unknown => return None,
        };
        if x >= w || y >= h || z >= d {
            return None;
        }
        let index = u64::from(z)
            .checked_mul(u64::from(h))?
            .checked_add(u64::from(y))?
            .checked_mul(u64::from(w))?
            .checked_add(u64::from(x))?;
        usize::try_from(index.checked_mul(u64::from(self.element_bytes))?).ok()
    }

    /// `ld_uav_typed` (22.4.8): the element at `address` decoded to four words; outside the view, as `ld` out of
    /// range: 0 in the format's components and the defaults of the others (alpha 1, 19.1.3.3).
    pub fn load_typed(&self, address: [u32; 3]) -> Result<[u32; 4]> {
        let Some(codec) = self.codec else {
            return Ok([0; 4]);
        };
        let zeros = [0u8; 16];
        let memory = self.lock();
        let bytes = self
            .element_offset(address)
            .and_then(|at| memory.bytes.get(at..))
            .unwrap_or(&zeros);
        codec.decode(bytes)
    }

    /// `store_uav_typed` (22.4.9): `value` encoded in the view's format at `address`; outside the view, nothing.
    pub fn store_typed(&self, address: [u32; 3], value: [u32; 4], writer: Writer) -> Result<()> {
        let (Some(codec), Some(at)) = (self.codec, self.element_offset(address)) else {
            return Ok(());
        };
        let mut memory = self.lock();
        let element = at..at.saturating_add(self.element_bytes as usize);
        let watched = memory.watched_before(at, element.len());
        // a typed element is at most 16 bytes (R32G32B32A32); only a view following its writers keeps the old one
        let mut before = [0u8; 16];
        let kept = memory.order.is_some()
            && match (memory.bytes.get(element.clone()), before.get_mut(..element.len())) {
                (Some(old), Some(copy)) => {
                    copy.copy_from_slice(old);
                    true
                }
                _ => false,
            };
        match memory.bytes.get_mut(at..) {
            Some(bytes) => codec.encode(value, bytes)?,
            None => return Ok(()),
        }
        memory.watched_after(watched, writer, WriteOperation::Store);
        if kept {
            let changed = memory.bytes.get(element.clone()) != before.get(..element.len());
            if let Some(log) = memory.order.as_mut() {
                log.write(at, writer, changed);
            }
        }
        Ok(())
    }

    /// The byte address of 32-bit word `word` (0..3) of an access at `address` (raw: the byte offset; structured:
    /// index and byte offset), or `None` when it is out of bounds. A structured access whose byte offset passes the
    /// structure is out of bounds too (the spec leaves that undefined).
    fn word_address(&self, address: [u32; 2], word: u32) -> Option<usize> {
        let total = u64::from(self.size[0]).saturating_mul(u64::from(self.element_bytes));
        let extra = u64::from(word).checked_mul(4)?;
        let at = match self.access {
            UavAccess::Raw => u64::from(address[0]).checked_add(extra)?,
            UavAccess::Structured { stride } => {
                let offset = u64::from(address[1]).checked_add(extra)?;
                if offset.checked_add(4)? > u64::from(stride) || address[0] >= self.size[0] {
                    return None;
                }
                u64::from(address[0])
                    .checked_mul(u64::from(stride))?
                    .checked_add(offset)?
            }
            UavAccess::Typed => {
                // Atomics on an R32_UINT/SINT typed view: the element's word.
                let offset = self.element_offset([address[0], address[1], 0])?;
                return (word == 0 && self.element_bytes == 4).then_some(offset);
            }
        };
        // 32-bit accesses are aligned: the low two bits of a byte address are ignored.
        let at = at & !3;
        (at.checked_add(4)? <= total)
            .then(|| usize::try_from(at).ok())
            .flatten()
    }

    /// Word `word` of a raw or structured load (22.4.10, 22.4.12); 0 out of bounds.
    pub fn load_word(&self, address: [u32; 2], word: u32) -> u32 {
        let Some(at) = self.word_address(address, word) else {
            return 0;
        };
        read_word(&self.lock().bytes, at)
    }

    /// Word `word` of a raw or structured store (22.4.11, 22.4.13); nothing out of bounds.
    pub fn store_word(&self, address: [u32; 2], word: u32, value: u32, writer: Writer) {
        if let Some(at) = self.word_address(address, word) {
            let mut memory = self.lock();
            let changed = read_word(&memory.bytes, at) != value;
            let watched = memory.watched_before(at, 4);
            write_word(&mut memory.bytes, at, value);
            memory.watched_after(watched, writer, WriteOperation::Store);
            if let Some(log) = memory.order.as_mut() {
                log.write(at, writer, changed);
            }
        }
    }

    /// An atomic operation at `address` (raw: byte offset; structured: index, byte offset; typed: coordinates):
    /// the word before it, or `None` out of bounds (nothing written; the spec leaves the returned value undefined).
    pub fn atomic(&self, address: [u32; 3], op: AtomicOp, value: u32, with: u32, writer: Writer) -> Option<u32> {
        let at = match self.access {
            UavAccess::Typed => self.element_offset(address).filter(|_| self.element_bytes == 4),
            _ => self.word_address([address[0], address[1]], 0),
        }?;
        let mut memory = self.lock();
        let old = read_word(&memory.bytes, at);
        let new = op.apply(old, value, with);
        let watched = memory.watched_before(at, 4);
        write_word(&mut memory.bytes, at, new);
        memory.watched_after(watched, writer, WriteOperation::Atomic(op));
        // exchanges leave whichever came last (a compare-exchange only when it writes); the other operations commute
        let wrote = match op {
            AtomicOp::Exchange => true,
            AtomicOp::CompareExchange => old == value,
            _ => false,
        };
        if wrote && let Some(log) = memory.order.as_mut() {
            log.write(at, writer, new != old);
        }
        Some(old)
    }

    /// `imm_atomic_alloc` (22.17.17): the counter before it is incremented (wrapping); `None` without a counter.
    pub fn increment_counter(&self, writer: Writer) -> Option<u32> {
        if self.counter_kind == UavCounter::None {
            return None;
        }
        let mut memory = self.lock();
        if let Some(log) = memory.order.as_mut() {
            log.count(writer);
        }
        let old = memory.counter;
        memory.counter = old.wrapping_add(1);
        memory.watched_count(writer, old, true);
        Some(old)
    }

    /// `imm_atomic_consume` (22.17.18): the counter after it is decremented (wrapping); `None` without a counter.
    pub fn decrement_counter(&self, writer: Writer) -> Option<u32> {
        if self.counter_kind == UavCounter::None {
            return None;
        }
        let mut memory = self.lock();
        if let Some(log) = memory.order.as_mut() {
            log.count(writer);
        }
        let old = memory.counter;
        memory.counter = old.wrapping_sub(1);
        memory.watched_count(writer, old, false);
        Some(memory.counter)
    }
}

/// Whether a view can be used through a declaration of `kind` (5.3.9: the view's type and dimension are the
/// declaration's).
pub(crate) fn fits_declaration(kind: UavKind, view: &UnorderedAccessView) -> bool {
    use ResourceDimension as R;
    use UavDimension as V;
    match kind {
        UavKind::Raw => view.access() == UavAccess::Raw,
        UavKind::Structured { .. } => matches!(view.access(), UavAccess::Structured { .. }),
        UavKind::Typed { dimension, .. } => {
            view.access() == UavAccess::Typed
                && matches!(
                    (dimension, view.dimension()),
                    (R::Buffer, V::Buffer)
                        | (R::Texture1D, V::Texture1D)
                        | (R::Texture1DArray, V::Texture1DArray)
                        | (R::Texture2D, V::Texture2D)
                        | (R::Texture2DArray, V::Texture2DArray)
                        | (R::Texture3D, V::Texture3D)
                )
        }
    }
}

/// The little-endian word at byte `at` (in bounds by the caller's check; 0 otherwise).
fn read_word(bytes: &[u8], at: usize) -> u32 {
    at.checked_add(4)
        .and_then(|end| bytes.get(at..end))
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .map_or(0, u32::from_le_bytes)
}

/// Writes the little-endian word at byte `at` (nothing out of bounds).
fn write_word(bytes: &mut [u8], at: usize, value: u32) {
    if let Some(slot) = at.checked_add(4).and_then(|end| bytes.get_mut(at..end)) {
        slot.copy_from_slice(&value.to_le_bytes());
    }
}

/// One unordered access view after a dispatch: the bytes of its window and its counter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UavContents {
    /// The view's elements (a buffer's window; a texture's mip level, the view's slices, rows packed).
    pub bytes: Vec<u8>,
    /// The hidden counter of an append or counter view.
    pub counter: Option<u32>,
}

/// What a view holds now.
pub fn contents(view: &UnorderedAccessView) -> UavContents {
    let (bytes, counter) = view.contents();
    UavContents {
        bytes,
        counter: (view.counter_kind() != UavCounter::None).then_some(counter),
    }
}

/// A view's window of its resource as an [`UnorderedAccessView`] (5.3.9's view rules checked).
pub fn uav_view(binding: &UnorderedAccessViewBinding) -> Result<UnorderedAccessView> {
    let desc = &binding.desc;
    let what = "unordered access view";
    let counter = match (desc.append, desc.counter) {
        (false, false) => UavCounter::None,
        (true, false) => UavCounter::Append,
        (false, true) => UavCounter::Counter,
        (true, true) => return Err(Error::new(what, "a view cannot be both append and counter")),
    };
    let initial = binding.initial_count.unwrap_or(0);
    match (&*binding.resource, desc.dimension) {
        (Resource::Buffer(bytes), UavDimension::Buffer) => {
            let (access, element_bytes) = buffer_access(desc)?;
            let start = u64::from(desc.first_element).saturating_mul(element_bytes);
            let length = u64::from(desc.num_elements).saturating_mul(element_bytes);
            let end = start.saturating_add(length);
            if end > bytes.len() as u64 {
                return Err(Error::new(
                    what,
                    format!(
                        "elements {}..{} of {element_bytes} bytes pass the end of the {}-byte buffer",
                        desc.first_element,
                        u64::from(desc.first_element).saturating_add(u64::from(desc.num_elements)),
                        bytes.len()
                    ),
                ));
            }
            let window = usize::try_from(start)
                .ok()
                .zip(usize::try_from(end).ok())
                .and_then(|(s, e)| bytes.get(s..e))
                .ok_or_else(|| Error::new(what, "the window is past the buffer"))?;
            UnorderedAccessView::new(
                UavDimension::Buffer,
                access,
                desc.format,
                [desc.num_elements, 1, 1],
                window.to_vec(),
                counter,
                initial,
            )
        }
        (Resource::Texture(texture), dimension) => {
            if desc.raw || desc.structure_stride != 0 || counter != UavCounter::None {
                return Err(Error::new(what, "a texture view is typed (5.3.9)"));
            }
            let shape = &texture.shape;
            let level = desc.mip_slice;
            let [width, height, depth] = shape.mip_size(level);
            if level >= shape.mip_levels {
                return Err(Error::new(what, format!("mip level {level} of {}", shape.mip_levels)));
            }
            let (slices, first, count) = match dimension {
                UavDimension::Texture1D | UavDimension::Texture2D => (shape.array_size, 0, 1),
                UavDimension::Texture1DArray | UavDimension::Texture2DArray => {
                    (shape.array_size, desc.first_array_slice, desc.array_size)
                }
                UavDimension::Texture3D => (depth, desc.first_array_slice, desc.array_size),
                other => return Err(Error::new(what, format!("a {other:?} view of a texture"))),
            };
            let count = if count == u32::MAX {
                slices.saturating_sub(first)
            } else {
                count
            };
            if count == 0 || first.checked_add(count).is_none_or(|end| end > slices) {
                return Err(Error::new(
                    what,
                    format!("slices {first}..+{count} pass the texture's {slices}"),
                ));
            }
            let layout = shape.mip_layout(level)?;
            let mut bytes = Vec::new();
            if dimension == UavDimension::Texture3D {
                let data = texture
                    .subresource(level, 0)
                    .ok_or_else(|| Error::new(what, "the mip level has no data"))?;
                let plane = usize::try_from(layout.row_bytes.saturating_mul(layout.rows))
                    .map_err(|_| Error::new(what, "size"))?;
                for z in first..first.saturating_add(count) {
                    let start = usize::try_from(z).unwrap_or(usize::MAX).saturating_mul(plane);
                    let slice = data
                        .get(start..start.saturating_add(plane))
                        .ok_or_else(|| Error::new(what, format!("depth slice {z} has no data")))?;
                    bytes.extend_from_slice(slice);
                }
            } else {
                for slice in first..first.saturating_add(count) {
                    let data = texture
                        .subresource(level, slice)
                        .ok_or_else(|| Error::new(what, format!("slice {slice} has no data")))?;
                    bytes.extend_from_slice(data);
                }
            }
            let size = match dimension {
                UavDimension::Texture1D => [width, 1, 1],
                UavDimension::Texture1DArray => [width, count, 1],
                UavDimension::Texture2D => [width, height, 1],
                _ => [width, height, count],
            };
            UnorderedAccessView::new(dimension, UavAccess::Typed, desc.format, size, bytes, counter, initial)
        }
        (_, dimension) => Err(Error::new(what, format!("a {dimension:?} view of a buffer"))),
    }
}

/// How a buffer view addresses its elements, and their size in bytes: raw (4-byte words), structured (the stride)
/// or typed (the format's element).
fn buffer_access(desc: &crate::api::dispatch::UnorderedAccessViewDesc) -> Result<(UavAccess, u64)> {
    Ok(if desc.raw {
        (UavAccess::Raw, 4)
    } else if desc.structure_stride != 0 {
        (
            UavAccess::Structured {
                stride: desc.structure_stride,
            },
            u64::from(desc.structure_stride),
        )
    } else {
        (UavAccess::Typed, TexelCodec::new(desc.format)?.element_bytes() as u64)
    })
}

/// The views of `bindings` by slot, each holding a copy of its window of the resource (a dispatch or a draw writes
/// these; several may share them, as a frame's do); errors name the slot.
pub fn uav_views(bindings: &[Option<UnorderedAccessViewBinding>]) -> Result<Vec<Option<UnorderedAccessView>>> {
    bindings
        .iter()
        .enumerate()
        .map(|(slot, binding)| {
            binding
                .as_ref()
                .map(|b| uav_view(b).map_err(|e| e.within(format!("u{slot}"))))
                .transpose()
        })
        .collect()
}

/// The resource `binding` views, with the view's window holding `bytes` (what a view's [`UnorderedAccessView::contents`]
/// gave): a buffer's elements or a texture's mip level slices replaced, the rest as it was. For the draw after, which
/// sees what this one wrote.
pub fn resource_after(binding: &UnorderedAccessViewBinding, bytes: &[u8]) -> Result<Resource> {
    let what = "unordered access view";
    let desc = &binding.desc;
    match &*binding.resource {
        Resource::Buffer(data) => {
            let (_, element) = buffer_access(desc)?;
            let start = usize::try_from(u64::from(desc.first_element).saturating_mul(element))
                .map_err(|_| Error::new(what, "window"))?;
            let mut out = data.to_vec();
            let window = start
                .checked_add(bytes.len())
                .and_then(|end| out.get_mut(start..end))
                .ok_or_else(|| Error::new(what, "the view's bytes pass the buffer"))?;
            window.copy_from_slice(bytes);
            Ok(Resource::Buffer(out.into()))
        }
        Resource::Texture(texture) => {
            let mut texture = texture.clone();
            let level = desc.mip_slice;
            let first = match desc.dimension {
                UavDimension::Texture1DArray | UavDimension::Texture2DArray => desc.first_array_slice,
                _ => 0,
            };
            let mut rest = bytes;
            let mips = texture.shape.mip_levels;
            if desc.dimension == UavDimension::Texture3D {
                let layout = texture.shape.mip_layout(level)?;
                let plane = usize::try_from(layout.row_bytes.saturating_mul(layout.rows)).unwrap_or(usize::MAX);
                let index = usize::try_from(level).unwrap_or(usize::MAX);
                let data = texture
                    .subresources
                    .get(index)
                    .ok_or_else(|| Error::new(what, "no mip data"))?;
                let mut out = data.to_vec();
                let start = usize::try_from(desc.first_array_slice)
                    .unwrap_or(usize::MAX)
                    .saturating_mul(plane);
                let window = start
                    .checked_add(rest.len())
                    .and_then(|end| out.get_mut(start..end))
                    .ok_or_else(|| Error::new(what, "the view's bytes pass the mip level"))?;
                window.copy_from_slice(rest);
                if let Some(place) = texture.subresources.get_mut(index) {
                    *place = out.into();
                }
            } else {
                let mut slice = first;
                while !rest.is_empty() {
                    let index = slice
                        .checked_mul(mips)
                        .and_then(|s| s.checked_add(level))
                        .and_then(|s| usize::try_from(s).ok())
                        .ok_or_else(|| Error::new(what, "slice"))?;
                    let place = texture
                        .subresources
                        .get_mut(index)
                        .ok_or_else(|| Error::new(what, "the view's bytes pass the texture"))?;
                    let length = place.len().min(rest.len());
                    let (now, later) = rest.split_at(length);
                    *place = now.to_vec().into();
                    rest = later;
                    slice = slice.saturating_add(1);
                }
            }
            Ok(Resource::Texture(texture))
        }
    }
}

/// One thread group's shared memory (18.6.3): every `g#` the program declares, as 32-bit words, zeroed when the
/// group starts (the spec leaves its initial contents undefined).
#[derive(Debug, Default)]
pub struct SharedMemory {
    words: RefCell<Vec<u32>>,
}

impl SharedMemory {
    /// `words` zeroed words.
    pub fn new(words: usize) -> SharedMemory {
        SharedMemory {
            words: RefCell::new(vec![0; words]),
        }
    }

    /// Zeroes every word, for the next group.
    pub fn clear(&self) {
        self.words.borrow_mut().iter_mut().for_each(|w| *w = 0);
    }

    /// The word at `index`; 0 outside.
    pub fn load(&self, index: usize) -> u32 {
        self.words.borrow().get(index).copied().unwrap_or(0)
    }

    /// Sets the word at `index`; nothing outside.
    pub fn store(&self, index: usize, value: u32) {
        if let Some(word) = self.words.borrow_mut().get_mut(index) {
            *word = value;
        }
    }

    /// An atomic operation on the word at `index`: the word before it, `None` outside.
    pub fn atomic(&self, index: usize, op: AtomicOp, value: u32, with: u32) -> Option<u32> {
        let mut words = self.words.borrow_mut();
        let word = words.get_mut(index)?;
        let old = *word;
        *word = op.apply(old, value, with);
        Some(old)
    }

    /// Every word, as it is now.
    pub fn words(&self) -> Vec<u32> {
        self.words.borrow().clone()
    }
}
