//! Inspecting one element of a replayed dispatch's unordered access view: which threads wrote it, in the order the
//! replay ran them, with what, and what each of them executed.
//!
//! [`inspect_dispatch_element`] reads dispatch N of a capture and [`inspect_element`] inspects element `address` of
//! its view `u#`. The element is addressed as the view's instructions address it (22.4.9, 22.4.11, 22.4.13):
//!
//! - a **typed** view (texture or buffer): the texel at coordinates (buffer index; x, slice; x, y; x, y, slice or
//!   depth), its whole element;
//! - a **raw** view: the 32-bit word at byte offset `address[0]` (aligned down to 4, as a raw access is);
//! - a **structured** view: the 32-bit word at structure `address[0]`, byte offset `address[1]` in it.
//!
//! The dispatch runs twice from its recorded views ([`crate::dispatch`]'s order: groups X fastest, a group's threads
//! in flattened order, batch by batch). The first run watches the element
//! ([`crate::shader::uav::UnorderedAccessView::watch`]): every store or atomic operation that reaches it is kept with
//! its thread, its instruction and the element's bytes before and after, up to
//! [`MAX_WATCHED_WRITES`](crate::shader::uav::MAX_WATCHED_WRITES) writes (the rest counted). The second traces the
//! first [`MAX_TRACED_THREADS`] distinct writers (every instruction each executed, with the values it read and
//! wrote: the trace a pixel's history gives a pixel program) and stops after the last group holding one of them.
//! A hidden counter's `imm_atomic_alloc`/`consume` (22.17.17-18) writes no element and is not an element's write;
//! the counter itself can be inspected instead of an element ([`ElementAddress::Counter`]): its value before, recorded
//! and replayed, and every thread that took or gave back a slot, in order, with the counter before and after.
//!
//! The inspection also gives the element before the dispatch, as the GPU left it (when recorded) and as the replay
//! left it, and whether its replayed value depends on the order of the threads, which the spec leaves open
//! (18.6.6): true when threads the spec does not order stored different values to it or exchanged it (the
//! [`crate::shader::uav::OrderDependence`] of the view); then another device may end with another of the written
//! values there and still follow the spec.

use std::io::{Read, Seek};
use std::sync::Arc;

use serde::Serialize;

use super::report::ProgramListing;
use super::values::{self, ChannelDifference, TexelValue};
use crate::capture::{Capture, CapturedDispatch};
use crate::compare::ToleranceSpec;
use crate::dispatch::{
    DispatchOptions, MAX_TRACED_THREADS, ThreadPlace, run_dispatch_on, thread_place, trace_threads, uav_views,
};
use crate::draw::{Program, ProgramTrace};
use crate::error::ErrorKind;
use crate::format::Format;
use crate::shader::uav::{AtomicOp, UavAccess, UavCounter, UnorderedAccessView, WriteOperation};
use crate::{Error, Result};

/// What of a view is inspected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementAddress {
    /// The element at these coordinates, as the view's instructions address it (module documentation).
    At([u32; 3]),
    /// The view's hidden counter (an append or counter structured view's, 22.17.17-18).
    Counter,
}

/// One write that reached the inspected element, in the order the replay made it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ElementWrite {
    /// The thread that wrote.
    pub thread: ThreadPlace,
    /// The instruction (its index in the program, declarations included).
    pub instruction: u32,
    /// The instruction's listing line.
    pub line: String,
    /// `"store"`, `"atomic "` and the operation (`"atomic add"`, `"atomic exchange"`...), or for the counter
    /// `"counter alloc"` (`imm_atomic_alloc`, incremented) or `"counter consume"` (`imm_atomic_consume`, decremented).
    pub operation: String,
    /// Group-wide barriers the thread's group had passed when it wrote.
    pub barriers_passed: u32,
    /// The element before the write.
    pub before: TexelValue,
    /// The element after it.
    pub after: TexelValue,
}

/// One writer's trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WriterTrace {
    /// The thread.
    pub thread: ThreadPlace,
    /// Every instruction it executed, with what it read and wrote.
    pub trace: ProgramTrace,
}

/// Everything about one element of one view of a replayed dispatch (see the module documentation).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ElementInspection {
    /// The dispatch's position in the capture's dispatches.
    pub dispatch: usize,
    /// What to call it.
    pub label: String,
    /// The view's slot, `u#`.
    pub slot: u32,
    /// `"typed"`, `"raw"` or `"structured"`.
    pub access: &'static str,
    /// The format the element is read in: the view's for a typed view, `R32_UINT` for a word of a raw or
    /// structured one.
    pub format: Format,
    /// The address asked for (unused coordinates 0; all 0 for the counter).
    pub address: [u32; 3],
    /// Whether the view's hidden counter is inspected instead of an element: its values are the counter's, its
    /// writes every `imm_atomic_alloc` and `imm_atomic_consume`.
    pub counter: bool,
    /// Where the element starts in the view's window, in bytes.
    pub byte_offset: u64,
    /// Its size in bytes.
    pub bytes: u64,
    /// Thread groups dispatched.
    pub groups: [u32; 3],
    /// Threads a group (`dcl_thread_group`).
    pub group_size: [u32; 3],
    /// The element before the dispatch.
    pub before: TexelValue,
    /// As the GPU left it, when recorded.
    pub recorded: Option<TexelValue>,
    /// As the replay left it.
    pub replayed: TexelValue,
    /// Whether the recorded and replayed bytes are equal; `None` when nothing was recorded.
    pub matches: Option<bool>,
    /// Per channel, recorded against replayed (a typed view's under the tolerance, a word's exactly); empty when
    /// nothing was recorded.
    pub difference: Vec<ChannelDifference>,
    /// The writes that reached the element, in order.
    pub writes: Vec<ElementWrite>,
    /// Writes past those kept.
    pub writes_not_kept: u64,
    /// Distinct threads among the kept writes.
    pub writers: usize,
    /// The first [`MAX_TRACED_THREADS`] writers' traces, in the order they first wrote.
    pub traces: Vec<WriterTrace>,
    /// Writers not traced (past [`MAX_TRACED_THREADS`]).
    pub writers_not_traced: usize,
    /// Whether the replayed value depends on the order of the threads (18.6.6).
    pub order_dependent: bool,
    /// Whether the view's order tracking ran out of room ([`crate::shader::uav::MAX_ORDERED_ELEMENTS`]), so that
    /// `order_dependent` may miss it.
    pub order_incomplete: bool,
    /// Whether threads the spec does not order took slots of the view's hidden counter (where each one's writes
    /// land then depends on the order).
    pub counter_unordered: bool,
    /// The compute program's listing: `lines[i]` is instruction `i`, the index writes and trace steps name.
    pub program: ProgramListing,
}

/// Inspects element `address` of view `u{slot}` of dispatch `index` of `capture` (see the module documentation).
pub fn inspect_dispatch_element<R: Read + Seek>(
    capture: &mut Capture<R>,
    index: usize,
    slot: u32,
    address: ElementAddress,
    tolerance: &ToleranceSpec,
    options: &DispatchOptions,
) -> Result<ElementInspection> {
    let dispatch = capture.dispatch(index)?;
    inspect_element(&dispatch, slot, address, tolerance, options)
}

/// Inspects element `address` of view `u{slot}` of `dispatch` (see the module documentation); errors name the
/// dispatch, the view and the element.
pub fn inspect_element(
    dispatch: &CapturedDispatch,
    slot: u32,
    address: ElementAddress,
    tolerance: &ToleranceSpec,
    options: &DispatchOptions,
) -> Result<ElementInspection> {
    let at = format!("dispatch {} u{slot}", dispatch.index);
    let state = &dispatch.state;
    let program = Arc::new(Program::new(&state.compute_shader).map_err(|e| e.within(format!("{at} cs")))?);
    let group_size = program
        .executable
        .thread_group()
        .ok_or_else(|| Error::new("cs", "no dcl_thread_group").at(at.as_str()))?;
    let listing = ProgramListing::of(&program.shader.program);
    let views = uav_views(&state.uavs).map_err(|e| e.within(at.as_str()))?;
    let slot_index = usize::try_from(slot).unwrap_or(usize::MAX);
    let view = views.get(slot_index).and_then(Option::as_ref).ok_or_else(|| {
        let bound: Vec<String> = views
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_some())
            .map(|(s, _)| format!("u{s}"))
            .collect();
        Error::of_kind(
            ErrorKind::Request,
            "inspect",
            format!(
                "the dispatch binds no view at u{slot}; it binds {}",
                if bound.is_empty() {
                    "none".to_owned()
                } else {
                    bound.join(", ")
                }
            ),
        )
        .at(format!("dispatch {}", dispatch.index))
    })?;
    let counter = address == ElementAddress::Counter;
    let coordinates = match address {
        ElementAddress::At(coordinates) => coordinates,
        ElementAddress::Counter => [0; 3],
    };
    if counter && view.counter_kind() == UavCounter::None {
        return Err(Error::of_kind(
            ErrorKind::Request,
            "inspect",
            "the view has no hidden counter (only an append or counter structured view has one)",
        )
        .at(at.as_str()));
    }
    let range = match address {
        ElementAddress::At(coordinates) => view
            .element_range(coordinates)
            .ok_or_else(|| outside(view, coordinates).at(at.as_str()))?,
        ElementAddress::Counter => 0..4,
    };
    let format = match view.access() {
        UavAccess::Typed if !counter => view.format(),
        _ => Format::R32Uint,
    };
    // the element's bytes in a window, or the counter's value as 4 little-endian bytes
    let element_of = |(bytes, count): (&[u8], u32)| -> Result<Vec<u8>> {
        if counter {
            return Ok(count.to_le_bytes().to_vec());
        }
        bytes
            .get(range.clone())
            .map(<[u8]>::to_vec)
            .ok_or_else(|| Error::new("inspect", "the element is past the view's bytes").at(at.as_str()))
    };
    let value = |bytes: &[u8]| values::texel_value(format, bytes);
    let (bytes, count) = view.contents();
    let before_bytes = element_of((&bytes, count))?;
    views.iter().flatten().for_each(UnorderedAccessView::track_order);
    if counter {
        view.watch_counter();
    } else {
        view.watch(range.clone());
    }
    run_dispatch_on(state, &views, options).map_err(|e| e.within(at.as_str()))?;
    let (bytes, count) = view.contents();
    let replayed_bytes = element_of((&bytes, count))?;
    let log = view.watched().unwrap_or_default();
    let order = view.order_dependence().unwrap_or_default();
    let recorded = dispatch.after.get(slot_index).and_then(Option::as_ref);
    let recorded_bytes = if counter {
        recorded.and_then(|r| r.counter).map(|c| c.to_le_bytes().to_vec())
    } else {
        recorded
            .and_then(|r| r.bytes.as_deref())
            .map(|bytes| element_of((bytes, 0)))
            .transpose()?
    };
    let mut writers: Vec<u64> = Vec::new();
    let mut writes = Vec::with_capacity(log.writes.len());
    for write in &log.writes {
        let invocation = write.writer.invocation;
        let Some(thread) = thread_place(state, group_size, invocation) else {
            continue;
        };
        if !writers.contains(&invocation) {
            writers.push(invocation);
        }
        writes.push(ElementWrite {
            thread,
            instruction: write.writer.instruction,
            line: listing.line(write.writer.instruction).trim().to_owned(),
            operation: operation_name(write.operation),
            barriers_passed: write.writer.epoch,
            before: value(&write.before)?,
            after: value(&write.after)?,
        });
    }
    let traced: Vec<u64> = writers.iter().copied().take(MAX_TRACED_THREADS).collect();
    let traces = if traced.is_empty() {
        Vec::new()
    } else {
        let fresh = uav_views(&state.uavs).map_err(|e| e.within(at.as_str()))?;
        trace_threads(state, &fresh, options, &traced)
            .map_err(|e| e.within(at.as_str()))?
            .into_iter()
            .filter_map(|(invocation, trace)| {
                thread_place(state, group_size, invocation).map(|thread| WriterTrace { thread, trace })
            })
            .collect()
    };
    let byte_offset = range.start as u64;
    let difference = match &recorded_bytes {
        Some(recorded) => {
            let resolved = match view.access() {
                UavAccess::Typed => tolerance.resolve(format),
                _ => ToleranceSpec::exact().resolve(format),
            };
            values::channel_differences(format, &resolved, recorded, &replayed_bytes)?
        }
        None => Vec::new(),
    };
    Ok(ElementInspection {
        dispatch: dispatch.index,
        label: dispatch.label.clone(),
        slot,
        access: match view.access() {
            UavAccess::Typed => "typed",
            UavAccess::Raw => "raw",
            UavAccess::Structured { .. } => "structured",
        },
        format,
        address: coordinates,
        counter,
        byte_offset,
        bytes: range.len() as u64,
        groups: state.groups,
        group_size,
        before: value(&before_bytes)?,
        recorded: recorded_bytes.as_deref().map(value).transpose()?,
        replayed: value(&replayed_bytes)?,
        matches: recorded_bytes.as_ref().map(|r| *r == replayed_bytes),
        difference,
        writers: writers.len(),
        writers_not_traced: writers.len().saturating_sub(traces.len()),
        writes,
        writes_not_kept: log.not_kept,
        traces,
        order_dependent: if counter {
            order.counter
        } else {
            order.elements.contains(&byte_offset)
        },
        order_incomplete: order.incomplete,
        counter_unordered: order.counter,
        program: listing,
    })
}

/// The error for an address outside `view`.
fn outside(view: &UnorderedAccessView, address: [u32; 3]) -> Error {
    let [w, h, d] = view.size();
    let detail = match view.access() {
        UavAccess::Typed => format!(
            "element ({}, {}, {}) is outside the {w}x{h}x{d} {:?} view",
            address[0],
            address[1],
            address[2],
            view.dimension()
        ),
        UavAccess::Raw => format!(
            "byte offset {} is outside the raw view of {} bytes",
            address[0],
            u64::from(w).saturating_mul(4)
        ),
        UavAccess::Structured { stride } => format!(
            "structure {}, byte offset {} is outside the view of {w} structures of {stride} bytes",
            address[0], address[1]
        ),
    };
    Error::of_kind(ErrorKind::Request, "inspect", detail)
}

/// What a write was, in words.
fn operation_name(operation: WriteOperation) -> String {
    let op = match operation {
        WriteOperation::Store => return "store".to_owned(),
        WriteOperation::Counter { increment: true } => return "counter alloc".to_owned(),
        WriteOperation::Counter { increment: false } => return "counter consume".to_owned(),
        WriteOperation::Atomic(op) => op,
    };
    let name = match op {
        AtomicOp::And => "and",
        AtomicOp::Or => "or",
        AtomicOp::Xor => "xor",
        AtomicOp::Add => "add",
        AtomicOp::SignedMax => "signed max",
        AtomicOp::SignedMin => "signed min",
        AtomicOp::UnsignedMax => "unsigned max",
        AtomicOp::UnsignedMin => "unsigned min",
        AtomicOp::Exchange => "exchange",
        AtomicOp::CompareExchange => "compare-exchange",
    };
    format!("atomic {name}")
}

impl ElementInspection {
    /// The inspection as readable text, for `iridia inspect --dispatch`.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let [a, b, c] = self.address;
        if self.counter {
            let _ = writeln!(
                out,
                "dispatch {} ({}): u{} {}, its hidden counter",
                self.dispatch, self.label, self.slot, self.access
            );
        } else {
            let _ = writeln!(
                out,
                "dispatch {} ({}): u{} {} element ({a}, {b}, {c}), bytes {}..{} of the window, {}",
                self.dispatch,
                self.label,
                self.slot,
                self.access,
                self.byte_offset,
                self.byte_offset.saturating_add(self.bytes),
                self.format
            );
        }
        let [gx, gy, gz] = self.groups;
        let [sx, sy, sz] = self.group_size;
        let _ = writeln!(out, "  {gx}x{gy}x{gz} groups of {sx}x{sy}x{sz} threads");
        let row = |out: &mut String, name: &str, value: &TexelValue| {
            let channels: Vec<String> = value
                .channels
                .iter()
                .map(|c| format!("{}={} ({:#x})", c.channel, c.value, c.bits))
                .collect();
            let _ = writeln!(out, "  {name:<9} {:<34} {}", value.bytes, channels.join(" "));
        };
        row(&mut out, "before", &self.before);
        match &self.recorded {
            Some(recorded) => row(&mut out, "recorded", recorded),
            None => {
                let _ = writeln!(out, "  recorded  (not recorded)");
            }
        }
        row(&mut out, "replayed", &self.replayed);
        let verdict = match self.matches {
            Some(true) => "matches",
            Some(false) => "differs",
            None => "not recorded",
        };
        let _ = writeln!(out, "  {verdict}");
        if self.order_dependent && self.counter {
            let _ = writeln!(
                out,
                "  which thread took which slot depends on the order of the threads (18.6.6): threads the spec does \
                 not order used the counter"
            );
        } else if self.order_dependent {
            let _ = writeln!(
                out,
                "  the replayed value depends on the order of the threads (18.6.6): threads the spec does not \
                 order wrote different values"
            );
        }
        if self.counter_unordered && !self.counter {
            let _ = writeln!(
                out,
                "  threads the spec does not order took slots of the view's counter: where each one's writes land \
                 depends on their order"
            );
        }
        if self.order_incomplete {
            let _ = writeln!(
                out,
                "  (the view's order tracking ran out of room: the order dependence may be missed)"
            );
        }
        let _ = writeln!(
            out,
            "{} write(s) by {} thread(s){}:",
            self.writes.len(),
            self.writers,
            if self.writes_not_kept > 0 {
                format!(", and {} more not kept", self.writes_not_kept)
            } else {
                String::new()
            }
        );
        for write in &self.writes {
            let t = &write.thread;
            let _ = writeln!(
                out,
                "  {}: {:>4}  {:<48} {}: {} -> {}",
                thread_text(t),
                write.instruction,
                write.line,
                write.operation,
                write.before.bytes,
                write.after.bytes
            );
        }
        for traced in &self.traces {
            let t = &traced.thread;
            let _ = writeln!(
                out,
                "trace of {} (SV_DispatchThreadID ({}, {}, {})):",
                thread_text(t),
                t.thread[0],
                t.thread[1],
                t.thread[2]
            );
            super::text::trace(&mut out, &traced.trace, Some(&self.program));
        }
        if self.writers_not_traced > 0 {
            let _ = writeln!(
                out,
                "({} more writer(s) not traced: at most {MAX_TRACED_THREADS} are)",
                self.writers_not_traced
            );
        }
        out
    }
}

/// `group (x, y, z) thread (x, y, z)`: where a thread is, as the text lists it.
fn thread_text(t: &ThreadPlace) -> String {
    let ([gx, gy, gz], [tx, ty, tz]) = (t.group, t.thread_in_group);
    format!("group ({gx}, {gy}, {gz}) thread ({tx}, {ty}, {tz})")
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::arithmetic_side_effects)] // tests index their own data
mod tests {
    use super::*;
    use crate::api::dispatch::{DispatchState, UnorderedAccessViewBinding, UnorderedAccessViewDesc};
    use crate::api::enums::UavDimension;
    use crate::api::resource::Resource;
    use crate::capture::{CaptureWriter, DispatchRecord};
    use crate::dispatch::UavContents;

    /// Each thread stores `SV_DispatchThreadID.x + 10` to the word at byte 4 x (its ID's parity), then adds its ID
    /// to the word at byte 8 atomically. Instructions: the four declarations are 0..3, `and` 4, `ishl` 5, `iadd` 6,
    /// `store_raw` 7, `atomic_iadd` 8, `ret` 9.
    const LISTING: &str = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 4, 1, 1
and r0.x, vThreadID.x, l(1)
ishl r0.x, r0.x, l(2)
iadd r0.y, vThreadID.x, l(10)
store_raw u0.x, r0.x, r0.y
atomic_iadd u0, l(8), vThreadID.x
ret
";

    fn le(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The dispatch of `groups` groups over a raw view of the words (0, 0, 100, 0), recorded after as `after`.
    fn capture(groups: u32, after: Option<[u32; 4]>) -> Capture<std::io::Cursor<Arc<[u8]>>> {
        let state = DispatchState {
            compute_shader: crate::dxbc::asm::assemble(LISTING).unwrap().into(),
            bindings: Default::default(),
            uavs: vec![Some(UnorderedAccessViewBinding {
                resource: Arc::new(Resource::Buffer(le(&[0, 0, 100, 0]).into())),
                desc: UnorderedAccessViewDesc {
                    format: Format::R32Typeless,
                    dimension: UavDimension::Buffer,
                    num_elements: 4,
                    raw: true,
                    ..Default::default()
                },
                initial_count: None,
            })],
            groups: [groups, 1, 1],
        };
        let mut record = DispatchRecord::new(state);
        record.after = vec![after.map(|words| UavContents {
            bytes: le(&words),
            counter: None,
        })];
        let mut writer = CaptureWriter::in_memory();
        writer.add_dispatch(&record).unwrap();
        Capture::open(writer.finish_to_vec().unwrap()).unwrap()
    }

    fn inspect(capture: &mut Capture<std::io::Cursor<Arc<[u8]>>>, address: [u32; 3]) -> Result<ElementInspection> {
        inspect_dispatch_element(
            capture,
            0,
            0,
            ElementAddress::At(address),
            &ToleranceSpec::default(),
            &DispatchOptions::default(),
        )
    }

    /// A word's bytes as `TexelValue::bytes` shows them.
    fn hex_of(word: u32) -> String {
        crate::text::hex(&word.to_le_bytes())
    }

    #[test]
    fn a_stored_word_lists_its_four_writers_in_the_order_the_replay_ran_them() {
        // threads 0..7 (two groups of 4): the even ones store 10, 12, 14, 16 to word 0, the last (thread 6: group 1,
        // thread 2 in it) wins; the GPU's 14 is what thread 4 stored, as if it had run last
        let mut capture = capture(2, Some([14, 17, 128, 0]));
        let inspection = inspect(&mut capture, [0, 0, 0]).unwrap();
        assert_eq!(
            (inspection.access, inspection.byte_offset, inspection.bytes),
            ("raw", 0, 4)
        );
        assert_eq!(inspection.format, Format::R32Uint);
        assert_eq!(inspection.before.bytes, hex_of(0));
        assert_eq!(inspection.replayed.bytes, hex_of(16));
        assert_eq!(inspection.recorded.as_ref().unwrap().bytes, hex_of(14));
        assert_eq!(inspection.matches, Some(false));
        assert_eq!(inspection.difference.len(), 1);
        type Seen<'a> = ([u32; 3], [u32; 3], u32, &'a str, String, String);
        let seen: Vec<Seen<'_>> = inspection
            .writes
            .iter()
            .map(|w| {
                (
                    w.thread.group,
                    w.thread.thread_in_group,
                    w.instruction,
                    w.operation.as_str(),
                    w.before.bytes.clone(),
                    w.after.bytes.clone(),
                )
            })
            .collect();
        let store = |group: u32, thread: u32, before: u32, after: u32| {
            ([group, 0, 0], [thread, 0, 0], 7, "store", hex_of(before), hex_of(after))
        };
        assert_eq!(
            seen,
            [
                store(0, 0, 0, 10),
                store(0, 2, 10, 12),
                store(1, 0, 12, 14),
                store(1, 2, 14, 16)
            ]
        );
        assert!(
            inspection.writes[0].line.starts_with("store_raw"),
            "{}",
            inspection.writes[0].line
        );
        assert_eq!(inspection.writes[3].thread.thread, [6, 0, 0]);
        assert_eq!(inspection.writes[3].thread.invocation, 6);
        // four unordered threads stored different values: the result is the order's
        assert!(inspection.order_dependent);
        assert_eq!((inspection.writers, inspection.writers_not_traced), (4, 0));
        // each writer traced: and, ishl, iadd, store_raw, atomic_iadd, ret; thread 6's iadd gave 6 + 10 in r0.y
        assert_eq!(inspection.traces.len(), 4);
        let last = &inspection.traces[3];
        assert_eq!(last.thread.invocation, 6);
        let instructions: Vec<u32> = last
            .trace
            .steps
            .iter()
            .filter(|s| s.active)
            .map(|s| s.instruction)
            .collect();
        assert_eq!(instructions, [4, 5, 6, 7, 8, 9]);
        let iadd = &last.trace.steps[2];
        assert_eq!(iadd.destinations[0].0, 0b0010);
        assert_eq!(iadd.destinations[0].1[1], 16);
        // the shift of thread 6's parity (0) gave byte offset 0
        assert_eq!(last.trace.steps[1].destinations[0].1[0], 0);
        let text = inspection.to_text();
        assert!(text.contains("4 write(s) by 4 thread(s)"), "{text}");
        assert!(text.contains("depends on the order of the threads"), "{text}");
    }

    #[test]
    fn an_atomically_added_word_lists_every_thread_and_does_not_depend_on_the_order() {
        // word 2 starts at 100; threads 0..7 add their IDs: 100, 100, 101, 103, 106, 110, 115, 121, then 128
        let mut capture = capture(2, Some([16, 17, 128, 0]));
        let inspection = inspect(&mut capture, [8, 0, 0]).unwrap();
        assert_eq!(inspection.byte_offset, 8);
        assert_eq!(inspection.matches, Some(true));
        assert!(inspection.difference.iter().all(|d| !d.differs()));
        let afters: Vec<String> = inspection.writes.iter().map(|w| w.after.bytes.clone()).collect();
        let expected: Vec<String> = [100u32, 101, 103, 106, 110, 115, 121, 128].map(hex_of).to_vec();
        assert_eq!(afters, expected);
        assert!(
            inspection
                .writes
                .iter()
                .all(|w| w.operation == "atomic add" && w.instruction == 8)
        );
        assert_eq!(inspection.writes[0].before.bytes, hex_of(100));
        // an add commutes: any order ends at 128
        assert!(!inspection.order_dependent);
        // a byte offset inside the word reaches the same word (raw accesses are 4-byte aligned)
        assert_eq!(inspect(&mut capture, [10, 0, 0]).unwrap().byte_offset, 8);
    }

    #[test]
    fn past_sixteen_writers_the_first_sixteen_are_traced() {
        // five groups: 20 threads add to word 2 (100 + 0 + 1 + ... + 19 = 290)
        let mut capture = capture(5, None);
        let inspection = inspect(&mut capture, [8, 0, 0]).unwrap();
        assert_eq!(inspection.replayed.bytes, hex_of(290));
        assert_eq!(inspection.matches, None);
        assert_eq!(inspection.writes.len(), 20);
        assert_eq!((inspection.writers, inspection.traces.len()), (20, MAX_TRACED_THREADS));
        assert_eq!(inspection.writers_not_traced, 4);
        let traced: Vec<u64> = inspection.traces.iter().map(|t| t.thread.invocation).collect();
        assert_eq!(traced, (0..16).collect::<Vec<u64>>());
        assert!(inspection.to_text().contains("4 more writer(s) not traced"));
    }

    #[test]
    fn an_element_nobody_writes_has_no_writers_and_addresses_outside_are_refused() {
        let mut capture = capture(2, Some([16, 17, 128, 0]));
        let inspection = inspect(&mut capture, [12, 0, 0]).unwrap();
        assert!(inspection.writes.is_empty() && inspection.traces.is_empty());
        assert_eq!(inspection.matches, Some(true));
        let outside = inspect(&mut capture, [16, 0, 0]).unwrap_err();
        assert_eq!(outside.kind, ErrorKind::Request);
        assert!(
            outside
                .to_string()
                .contains("byte offset 16 is outside the raw view of 16 bytes"),
            "{outside}"
        );
        let unbound = inspect_dispatch_element(
            &mut capture,
            0,
            3,
            ElementAddress::At([0, 0, 0]),
            &ToleranceSpec::default(),
            &DispatchOptions::default(),
        )
        .unwrap_err();
        assert!(unbound.to_string().contains("no view at u3; it binds u0"), "{unbound}");
    }

    #[test]
    fn a_counter_lists_every_thread_that_took_a_slot() {
        // the capture tests' dispatch: 8 threads (2 groups of 4) each take a slot of u1's counter, which starts at 5,
        // with imm_atomic_alloc (instruction 9: six declarations, mov, mov, store_structured, then it), in the
        // replay's order; it ends at 13, as recorded
        let mut writer = CaptureWriter::in_memory();
        writer
            .add_dispatch(&crate::capture::tests::dispatches::record())
            .unwrap();
        let mut capture = Capture::open(writer.finish_to_vec().unwrap()).unwrap();
        let counter = |capture: &mut Capture<std::io::Cursor<Arc<[u8]>>>, slot: u32| {
            inspect_dispatch_element(
                capture,
                0,
                slot,
                ElementAddress::Counter,
                &ToleranceSpec::default(),
                &DispatchOptions::default(),
            )
        };
        let inspection = counter(&mut capture, 1).unwrap();
        assert!(inspection.counter);
        assert_eq!(inspection.before.bytes, hex_of(5));
        assert_eq!(inspection.replayed.bytes, hex_of(13));
        assert_eq!(inspection.recorded.as_ref().unwrap().bytes, hex_of(13));
        assert_eq!(inspection.matches, Some(true));
        let seen: Vec<(u64, u32, String, String)> = inspection
            .writes
            .iter()
            .map(|w| {
                (
                    w.thread.invocation,
                    w.instruction,
                    w.before.bytes.clone(),
                    w.after.bytes.clone(),
                )
            })
            .collect();
        let expected: Vec<(u64, u32, String, String)> = (0..8u32)
            .map(|i| (u64::from(i), 9, hex_of(5 + i), hex_of(6 + i)))
            .collect();
        assert_eq!(seen, expected);
        assert!(inspection.writes.iter().all(|w| w.operation == "counter alloc"));
        // threads of two groups, which the spec does not order, took slots: which got which is the order's
        assert!(inspection.order_dependent);
        assert_eq!(inspection.traces.len(), 8);
        // u0 has no counter
        let refused = counter(&mut capture, 0).unwrap_err();
        assert!(refused.to_string().contains("no hidden counter"), "{refused}");
    }
}
