//! UAV and shared-memory instructions (22.4.8-13, 22.17.8-28) on a batch: lanes access memory one at a time in lane
//! order, which is one of the orders the spec allows (it fixes none between threads; `sync` orders a thread's own
//! accesses, which program order already does here).
//!
//! Only lanes whose invocation counts touch memory: a pixel program's helper lanes and discarded lanes "do not alter
//! the dst memory at all" (22.17.8), and their loads still run (for derivatives). An immediate atomic's returned
//! value for such a lane, or past the end of the memory, is 0 (the spec: undefined).

use crate::dxbc::program::{Opcode, ResinfoReturnType};
use crate::{Error, Result};

use super::super::alu;
use super::super::executable::{MemoryOperands, MemoryTarget, Op};
use super::super::lanes::{LANES, has};
use super::super::uav::{AtomicOp, SharedMemory, UnorderedAccessView, Writer};
use super::{Context, Machine, Scratch, Vec4, components, has_component, row, row_mut, word};
use crate::api::enums::UavDimension;

/// Which memory an instruction's lane reaches.
enum Memory<'a> {
    /// A bound view.
    View(&'a UnorderedAccessView),
    /// The group's shared memory, from `first` for `words` words, structures of `stride` bytes (0: raw).
    Shared {
        memory: &'a SharedMemory,
        first: u32,
        words: u32,
        stride: u32,
    },
    /// Nothing bound (read as zeros under `Unbound::Zero`; the run's checks refuse it otherwise).
    Nothing,
}

impl Memory<'_> {
    /// A raw or structured access's word `k` (`address`: byte offset, or index and byte offset).
    fn load(&self, address: [u32; 2], k: u32) -> u32 {
        match self {
            Memory::View(view) => view.load_word(address, k),
            Memory::Shared { memory, .. } => self.shared_word(address, k).map_or(0, |at| memory.load(at)),
            Memory::Nothing => 0,
        }
    }

    fn store(&self, address: [u32; 2], k: u32, value: u32, writer: Writer) {
        match self {
            Memory::View(view) => view.store_word(address, k, value, writer),
            Memory::Shared { memory, .. } => {
                if let Some(at) = self.shared_word(address, k) {
                    memory.store(at, value);
                }
            }
            Memory::Nothing => {}
        }
    }

    fn atomic(&self, address: [u32; 3], op: AtomicOp, value: u32, with: u32, writer: Writer) -> Option<u32> {
        match self {
            Memory::View(view) => view.atomic(address, op, value, with, writer),
            Memory::Shared { memory, .. } => {
                let at = self.shared_word([address[0], address[1]], 0)?;
                memory.atomic(at, op, value, with)
            }
            Memory::Nothing => None,
        }
    }

    /// The shared-memory word of an access, or `None` outside the `g#` (18.6.3: "the bounds of that particular
    /// g#"; the spec makes such an access undefined, here it reads 0 and writes nothing). Byte offsets are 32-bit
    /// aligned: their low two bits are ignored.
    fn shared_word(&self, address: [u32; 2], k: u32) -> Option<usize> {
        let Memory::Shared {
            first, words, stride, ..
        } = self
        else {
            return None;
        };
        let byte = if *stride == 0 {
            u64::from(address[0])
        } else {
            let offset = u64::from(address[1]).checked_add(u64::from(k).checked_mul(4)?)?;
            if offset.checked_add(4)? > u64::from(*stride) {
                return None;
            }
            u64::from(address[0])
                .checked_mul(u64::from(*stride))?
                .checked_add(u64::from(address[1]))?
        };
        let index = (byte / 4).checked_add(u64::from(k))?;
        if index >= u64::from(*words) {
            return None;
        }
        usize::try_from(index.checked_add(u64::from(*first))?).ok()
    }
}

/// The atomic operation of an `atomic_*` / `imm_atomic_*` opcode.
fn atomic_op(opcode: Opcode) -> Option<AtomicOp> {
    use Opcode as O;
    Some(match opcode {
        O::AtomicAnd | O::ImmAtomicAnd => AtomicOp::And,
        O::AtomicOr | O::ImmAtomicOr => AtomicOp::Or,
        O::AtomicXor | O::ImmAtomicXor => AtomicOp::Xor,
        O::AtomicIadd | O::ImmAtomicIadd => AtomicOp::Add,
        O::AtomicImax | O::ImmAtomicImax => AtomicOp::SignedMax,
        O::AtomicImin | O::ImmAtomicImin => AtomicOp::SignedMin,
        O::AtomicUmax | O::ImmAtomicUmax => AtomicOp::UnsignedMax,
        O::AtomicUmin | O::ImmAtomicUmin => AtomicOp::UnsignedMin,
        O::ImmAtomicExch => AtomicOp::Exchange,
        O::AtomicCmpStore | O::ImmAtomicCmpExch => AtomicOp::CompareExchange,
        _ => return None,
    })
}

impl Machine {
    /// A UAV or shared-memory instruction for the executing lanes.
    pub(super) fn memory(&mut self, context: &Context<'_, '_>, op: &Op) -> Result<()> {
        let Some(operands) = op.memory else {
            return Err(Error::new(context.exe.name.clone(), "not an executable instruction").at(context.exe.place(op)));
        };
        let memory = resolve(context, operands);
        let n = self.lane_count;
        let exec = self.exec;
        // Lanes whose writes count (22.17.8: helpers and discarded pixels do not alter memory).
        let writers = exec & !self.helper & !self.discarded;
        let fail = |e: Error| Error::new(context.exe.name.clone(), e.to_string()).at(context.exe.place(op));
        let writer_of: [Writer; LANES] = std::array::from_fn(|lane| Writer {
            instruction: op.instruction,
            ..self.writer(lane)
        });
        let writer = |lane: usize| writer_of.get(lane).copied().unwrap_or_default();
        let Scratch { sources, results } = &mut *self.scratch;
        let [out, _] = results;
        let int = |v: &Vec4, c: u8, lane: usize| row(v, c).get(lane).copied().unwrap_or(0);
        let [a, b, c, d] = &*sources;
        let mut wrote_result = false;
        match op.opcode {
            Opcode::LdRaw | Opcode::LdStructured => {
                // 22.4.10, 22.4.12: four words from the address, read through the memory operand's swizzle; only
                // the words a written component names are read.
                let mask = op.destinations.first().map_or(0, |dst| dst.mask);
                for lane in (0..n).filter(|l| has(exec, *l)) {
                    let address = if op.opcode == Opcode::LdRaw {
                        [int(a, 0, lane), 0]
                    } else {
                        [int(a, 0, lane), int(b, 0, lane)]
                    };
                    for component in 0u8..4 {
                        let k = word(&operands.swizzle.map(u32::from), component);
                        let value = if has_component(mask, component) {
                            memory.load(address, k)
                        } else {
                            0
                        };
                        set(out, component, lane, value);
                    }
                }
                wrote_result = true;
            }
            Opcode::Bufinfo => {
                let elements = match &memory {
                    Memory::View(view) => view.elements(),
                    _ => 0,
                };
                for lane in (0..n).filter(|l| has(exec, *l)) {
                    (0u8..4).for_each(|component| set(out, component, lane, elements));
                }
                wrote_result = true;
            }
            Opcode::Resinfo => {
                // 22.4.14 on a u#: (width, height, depth or slices, mip levels) of the view's one mip level.
                let size = match &memory {
                    Memory::View(view) => {
                        let [w, h, d] = view.size();
                        match view.dimension() {
                            UavDimension::Texture1D => [w, 0, 0, 1],
                            UavDimension::Texture1DArray => [w, h, 0, 1],
                            UavDimension::Texture2D => [w, h, 0, 1],
                            UavDimension::Texture2DArray | UavDimension::Texture3D => [w, h, d, 1],
                            _ => [0; 4],
                        }
                    }
                    _ => [0; 4],
                };
                let value = match op.resinfo_return {
                    ResinfoReturnType::Uint => size,
                    ResinfoReturnType::Float => size.map(alu::utof),
                    ResinfoReturnType::RcpFloat => {
                        let sizes = match &memory {
                            Memory::View(view) => match view.dimension() {
                                UavDimension::Texture1D | UavDimension::Texture1DArray => 1,
                                UavDimension::Texture3D => 3,
                                _ => 2,
                            },
                            _ => 0,
                        };
                        let mut value = size.map(alu::utof);
                        for v in value.iter_mut().take(sizes) {
                            *v = alu::rcp(*v);
                        }
                        value
                    }
                };
                for lane in (0..n).filter(|l| has(exec, *l)) {
                    for component in 0u8..4 {
                        let k = *operands.swizzle.get(usize::from(component)).unwrap_or(&component);
                        set(out, component, lane, word(&value, k));
                    }
                }
                wrote_result = true;
            }
            Opcode::LdUavTyped => {
                // 22.4.8: as `ld` on the u#: zeros outside.
                for lane in (0..n).filter(|l| has(exec, *l)) {
                    let texel = match &memory {
                        Memory::View(view) => view
                            .load_typed([int(a, 0, lane), int(a, 1, lane), int(a, 2, lane)])
                            .map_err(fail)?,
                        _ => [0; 4],
                    };
                    for component in 0u8..4 {
                        let k = *operands.swizzle.get(usize::from(component)).unwrap_or(&component);
                        set(out, component, lane, word(&texel, k));
                    }
                }
                wrote_result = true;
            }
            Opcode::StoreUavTyped => {
                // 22.4.9: all four components through the view's format; nothing outside.
                if let Memory::View(view) = &memory {
                    for lane in (0..n).filter(|l| has(writers, *l)) {
                        let address = [int(a, 0, lane), int(a, 1, lane), int(a, 2, lane)];
                        let value = [0u8, 1, 2, 3].map(|component| int(b, component, lane));
                        view.store_typed(address, value, writer(lane)).map_err(fail)?;
                    }
                }
            }
            Opcode::StoreRaw | Opcode::StoreStructured => {
                // 22.4.11, 22.4.13: the mask's components (.x, .xy, .xyz or .xyzw) to consecutive words.
                let (address_of, value): (&dyn Fn(usize) -> [u32; 2], &Vec4) = if op.opcode == Opcode::StoreRaw {
                    (&|lane| [int(a, 0, lane), 0], b)
                } else {
                    (&|lane| [int(a, 0, lane), int(b, 0, lane)], c)
                };
                for lane in (0..n).filter(|l| has(writers, *l)) {
                    let address = address_of(lane);
                    for component in components(operands.mask) {
                        memory.store(address, u32::from(component), int(value, component, lane), writer(lane));
                    }
                }
            }
            Opcode::ImmAtomicAlloc | Opcode::ImmAtomicConsume => {
                let Memory::View(view) = &memory else {
                    return Ok(());
                };
                for lane in (0..n).filter(|l| has(writers, *l)) {
                    let count = if op.opcode == Opcode::ImmAtomicAlloc {
                        view.increment_counter(writer(lane))
                    } else {
                        view.decrement_counter(writer(lane))
                    };
                    let Some(count) = count else {
                        return Err(fail(Error::new(
                            "unordered access view",
                            "imm_atomic_alloc/consume need a view with an append or counter flag (22.17.17)",
                        )));
                    };
                    (0u8..4).for_each(|component| set(out, component, lane, count));
                }
                wrote_result = true;
            }
            opcode => {
                let Some(atomic) = atomic_op(opcode) else {
                    return Err(fail(Error::new("memory", "not a memory instruction")));
                };
                let immediate = opcode.is_immediate_atomic();
                let values = if atomic == AtomicOp::CompareExchange { 2 } else { 1 };
                let (address, value, with) = (a, b, if values == 2 { c } else { b });
                let _ = d;
                for lane in (0..n).filter(|l| has(exec, *l)) {
                    let old = if has(writers, lane) {
                        let at = [int(address, 0, lane), int(address, 1, lane), int(address, 2, lane)];
                        // atomic_cmp_store / imm_atomic_cmp_exch: src0 is compared, src1 written (22.17.11, 22.17.23).
                        let (value, with) = if values == 2 {
                            (int(value, 0, lane), int(with, 0, lane))
                        } else {
                            (int(value, 0, lane), 0)
                        };
                        memory.atomic(at, atomic, value, with, writer(lane)).unwrap_or(0)
                    } else {
                        0
                    };
                    if immediate {
                        (0u8..4).for_each(|component| set(out, component, lane, old));
                    }
                }
                wrote_result = immediate;
            }
        }
        if wrote_result && let Some(destination) = op.destinations.first() {
            self.write_result(context, destination, 0);
        }
        Ok(())
    }
}

/// The memory an instruction's operand names, as bound.
fn resolve<'a>(context: &Context<'a, '_>, operands: MemoryOperands) -> Memory<'a> {
    match operands.target {
        MemoryTarget::Uav(slot) => usize::try_from(slot)
            .ok()
            .and_then(|s| context.bindings.uav(s))
            .map_or(Memory::Nothing, Memory::View),
        MemoryTarget::Shared(position) => {
            let declaration = usize::try_from(position).ok().and_then(|p| context.exe.shared.get(p));
            match (context.shared, declaration) {
                (Some(memory), Some(g)) => Memory::Shared {
                    memory,
                    first: g.first_word,
                    words: g.words,
                    stride: g.stride,
                },
                _ => Memory::Nothing,
            }
        }
    }
}

/// Sets component `component` of lane `lane` in a result.
fn set(out: &mut Vec4, component: u8, lane: usize, value: u32) {
    if lane < LANES
        && let Some(slot) = row_mut(out, component).get_mut(lane)
    {
        *slot = value;
    }
}
