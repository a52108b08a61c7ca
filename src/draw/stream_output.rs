//! Stream output (section 14): the vertices of each primitive a stream carries, written to the bound buffers as the
//! declaration lays them out.
//!
//! - The declaration (14.3) names, per stream, the output components each buffer slot receives in order (gaps skip
//!   components and leave the buffer's bytes as they are); a vertex takes its slot's stride, from the offset the
//!   target was bound at (14.4).
//! - Primitives go out whole, as lists: a strip's triangle `k` as the rasterizer takes it (leading vertex first, odd
//!   ones `k, k+2, k+1`), a line's two vertices, a point's one (14: "strips are expanded to lists").
//! - A primitive that does not fit every buffer its stream writes is not written, and nothing more of the stream is
//!   (14.5: writes stop; `PrimitivesStorageNeeded` keeps counting): [`StreamOutputBuffers::needed`] and
//!   [`StreamOutputBuffers::written`] are `D3D11_QUERY_SO_STATISTICS_STREAMn`'s two counts.
//! - The records are made once per instance when its vertices are shaded ([`StreamRecords`], kept with them) and
//!   written when the draw run reaches the instance, so a pixel history that shades vertices again writes nothing.

use crate::api::draw::StreamOutputState;
use crate::dxbc::signature::SignatureElement;
use crate::{Error, Result};

use super::program::Program;

/// One 32-bit word a stream's vertex writes: the buffer slot, its byte offset in the vertex, and the output
/// register and component it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct StreamWord {
    pub slot: usize,
    pub byte: u32,
    pub register: u32,
    pub component: u8,
}

/// A stream-output declaration resolved against the program whose outputs it writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct StreamOutputPlan {
    /// Per stream, the words of each vertex.
    pub words: [Vec<StreamWord>; 4],
    /// Per stream, the buffer slots it writes (bit per slot).
    pub slots: [u8; 4],
    /// Each slot's stride.
    pub strides: [u32; 4],
    /// The stream rasterized, if any.
    pub rasterized: Option<u32>,
}

impl StreamOutputPlan {
    /// Resolves `state`'s declaration against `program`'s output signature (elements matched by semantic and
    /// stream). `what` names the draw in errors.
    pub fn new(state: &StreamOutputState, program: &Program, what: &str) -> Result<StreamOutputPlan> {
        let error = |detail: String| Error::new(format!("{what} stream output"), detail);
        let elements: Vec<SignatureElement> = program
            .shader
            .output_signature
            .as_ref()
            .map(|s| s.elements.clone())
            .unwrap_or_default();
        let mut plan = StreamOutputPlan {
            words: Default::default(),
            slots: [0; 4],
            strides: state.strides,
            rasterized: state.rasterized_stream,
        };
        if state.rasterized_stream.is_some_and(|s| s > 3) {
            return Err(error("the rasterized stream is past 3".into()));
        }
        // the running byte offset of each slot's vertex layout
        let mut offsets = [0u32; 4];
        for (index, entry) in state.entries.iter().enumerate() {
            let stream = usize::try_from(entry.stream).ok().filter(|s| *s < 4);
            let slot = usize::try_from(entry.slot).ok().filter(|s| *s < 4);
            let (Some(stream), Some(slot)) = (stream, slot) else {
                return Err(error(format!(
                    "entry {index}: stream {} or slot {} past 3",
                    entry.stream, entry.slot
                )));
            };
            let count = u32::from(entry.component_count);
            if !(1..=4).contains(&count) || u32::from(entry.start_component).saturating_add(count) > 4 {
                return Err(error(format!(
                    "entry {index}: components {}..+{count} are not within x..w",
                    entry.start_component
                )));
            }
            let offset = offsets.get(slot).copied().unwrap_or(0);
            if let Some((name, semantic_index)) = &entry.semantic {
                let element = elements
                    .iter()
                    .find(|e| {
                        e.semantic_index == *semantic_index
                            && e.semantic_name.eq_ignore_ascii_case(name)
                            && e.stream == entry.stream
                    })
                    .ok_or_else(|| {
                        error(format!(
                            "entry {index}: the program writes no {name}{semantic_index} on stream {}",
                            entry.stream
                        ))
                    })?;
                for k in 0..count {
                    let component = entry.start_component.saturating_add(k as u8);
                    if let Some(words) = plan.words.get_mut(stream) {
                        words.push(StreamWord {
                            slot,
                            byte: offset.saturating_add(k.saturating_mul(4)),
                            register: element.register,
                            component,
                        });
                    }
                }
            }
            if let Some(bits) = plan.slots.get_mut(stream) {
                *bits |= 1 << slot;
            }
            let end = offset.saturating_add(count.saturating_mul(4));
            if end > state.strides.get(slot).copied().unwrap_or(0) {
                return Err(error(format!(
                    "entry {index}: the declaration passes slot {slot}'s stride of {} bytes",
                    state.strides.get(slot).copied().unwrap_or(0)
                )));
            }
            if let Some(o) = offsets.get_mut(slot) {
                *o = end;
            }
        }
        Ok(plan)
    }

    /// Every output component some stream writes.
    pub fn sources(&self) -> impl Iterator<Item = (u32, u8)> + '_ {
        self.words.iter().flatten().map(|w| (w.register, w.component))
    }
}

/// The primitives one instance sent to stream output: per primitive its stream and vertex count, and each vertex's
/// words in the order of the plan's words for that stream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamRecords {
    primitives: Vec<(u8, u8, usize)>,
    words: Vec<u32>,
}

impl StreamRecords {
    /// Adds a primitive of `stream` whose vertex `v`'s output `(register, component)` is `word(v, register,
    /// component)`.
    pub(super) fn push(
        &mut self,
        plan: &StreamOutputPlan,
        stream: u8,
        vertices: u8,
        word: impl Fn(usize, u32, u8) -> u32,
    ) {
        let Some(words) = plan.words.get(usize::from(stream)) else {
            return;
        };
        if plan.slots.get(usize::from(stream)).is_none_or(|s| *s == 0) {
            return;
        }
        self.primitives.push((stream, vertices, self.words.len()));
        for v in 0..usize::from(vertices) {
            for w in words {
                self.words.push(word(v, w.register, w.component));
            }
        }
    }

    /// How many primitives.
    pub fn len(&self) -> usize {
        self.primitives.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.primitives.is_empty()
    }
}

/// The stream-output buffers of a draw run, as written so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamOutputBuffers {
    /// The buffers by slot.
    pub buffers: [Option<Vec<u8>>; 4],
    /// Where each slot's next vertex goes.
    offsets: [u64; 4],
    /// Streams whose writes stopped (a primitive did not fit).
    stopped: [bool; 4],
    /// Per stream, the primitives written (`NumPrimitivesWritten`).
    pub written: [u64; 4],
    /// Per stream, the primitives that would have been written with room enough (`PrimitivesStorageNeeded`).
    pub needed: [u64; 4],
}

impl StreamOutputBuffers {
    /// Where slot `slot`'s next vertex would go: the buffer's filled size (14.4, what `DrawAuto` and an appending
    /// bind use).
    pub fn filled(&self, slot: usize) -> u64 {
        self.offsets.get(slot).copied().unwrap_or(0)
    }

    /// The bound buffers of `state`, from their offsets (an offset still saying append starts at 0: the draw alone
    /// does not know the filled size).
    pub(super) fn new(state: &StreamOutputState) -> StreamOutputBuffers {
        let mut buffers = StreamOutputBuffers::default();
        for ((slot, offset), target) in buffers
            .buffers
            .iter_mut()
            .zip(buffers.offsets.iter_mut())
            .zip(&state.targets)
        {
            if let Some(target) = target {
                *slot = Some(target.buffer.to_vec());
                *offset = if target.offset == crate::api::draw::STREAM_OUTPUT_APPEND {
                    0
                } else {
                    u64::from(target.offset)
                };
            }
        }
        buffers
    }

    /// Writes `records` in order (14.5's rule for a primitive without room).
    pub(super) fn write(&mut self, plan: &StreamOutputPlan, records: &StreamRecords) {
        for &(stream, vertices, first) in &records.primitives {
            let s = usize::from(stream);
            if let Some(needed) = self.needed.get_mut(s) {
                *needed = needed.saturating_add(1);
            }
            if self.stopped.get(s).copied().unwrap_or(true) {
                continue;
            }
            let slots = plan.slots.get(s).copied().unwrap_or(0);
            let fits = (0..4usize).filter(|k| slots >> k & 1 == 1).all(|k| {
                let stride = u64::from(plan.strides.get(k).copied().unwrap_or(0));
                let end = self
                    .offsets
                    .get(k)
                    .copied()
                    .unwrap_or(0)
                    .saturating_add(stride.saturating_mul(u64::from(vertices)));
                // an unbound slot takes nothing and never fills (14.2)
                self.buffers
                    .get(k)
                    .and_then(Option::as_ref)
                    .is_none_or(|b| end <= b.len() as u64)
            });
            if !fits {
                if let Some(stopped) = self.stopped.get_mut(s) {
                    *stopped = true;
                }
                continue;
            }
            let words = plan.words.get(s).map(Vec::as_slice).unwrap_or(&[]);
            for v in 0..usize::from(vertices) {
                for (i, w) in words.iter().enumerate() {
                    let value = records
                        .words
                        .get(first.saturating_add(v.saturating_mul(words.len())).saturating_add(i))
                        .copied()
                        .unwrap_or(0);
                    let stride = u64::from(plan.strides.get(w.slot).copied().unwrap_or(0));
                    let at = self
                        .offsets
                        .get(w.slot)
                        .copied()
                        .unwrap_or(0)
                        .saturating_add(stride.saturating_mul(v as u64))
                        .saturating_add(u64::from(w.byte));
                    if let Some(buffer) = self.buffers.get_mut(w.slot).and_then(Option::as_mut)
                        && let Ok(at) = usize::try_from(at)
                        && let Some(bytes) = at.checked_add(4).and_then(|end| buffer.get_mut(at..end))
                    {
                        bytes.copy_from_slice(&value.to_le_bytes());
                    }
                }
            }
            for k in (0..4usize).filter(|k| slots >> k & 1 == 1) {
                let stride = u64::from(plan.strides.get(k).copied().unwrap_or(0));
                if let Some(offset) = self.offsets.get_mut(k) {
                    *offset = offset.saturating_add(stride.saturating_mul(u64::from(vertices)));
                }
            }
            if let Some(written) = self.written.get_mut(s) {
                *written = written.saturating_add(1);
            }
        }
    }
}
