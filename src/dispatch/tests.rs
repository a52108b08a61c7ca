//! Dispatches of hand-written compute programs, with expected memory worked out from the spec's definitions.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic
)]

use std::sync::Arc;

use super::*;
use crate::api::dispatch::{UnorderedAccessViewBinding, UnorderedAccessViewDesc};
use crate::api::draw::StageBindings;
use crate::api::enums::UavDimension;
use crate::api::resource::Resource;
use crate::format::Format;

fn program(listing: &str) -> Arc<[u8]> {
    crate::dxbc::asm::assemble(listing).unwrap().into()
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn buffer_uav(words: &[u32], desc: UnorderedAccessViewDesc) -> Option<UnorderedAccessViewBinding> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    Some(UnorderedAccessViewBinding {
        resource: Arc::new(Resource::Buffer(bytes.into())),
        desc,
        initial_count: None,
    })
}

fn raw(words_: usize) -> UnorderedAccessViewDesc {
    UnorderedAccessViewDesc {
        format: Format::R32Typeless,
        dimension: UavDimension::Buffer,
        num_elements: words_ as u32,
        raw: true,
        ..Default::default()
    }
}

fn structured(stride: u32, elements: u32) -> UnorderedAccessViewDesc {
    UnorderedAccessViewDesc {
        dimension: UavDimension::Buffer,
        num_elements: elements,
        structure_stride: stride,
        ..Default::default()
    }
}

fn dispatch(listing: &str, uavs: Vec<Option<UnorderedAccessViewBinding>>, groups: [u32; 3]) -> DispatchOutput {
    let state = DispatchState {
        compute_shader: program(listing),
        bindings: StageBindings::default(),
        uavs,
        groups,
    };
    run_dispatch(&state, &DispatchOptions::default()).unwrap()
}

/// Every thread writes its four IDs; a 3x2x2 group dispatched 2x1x2 covers 48 threads. The flattened index in the
/// group is z*6 + y*3 + x (18.6.5), the dispatch position group*size + in-group position.
#[test]
fn thread_ids_follow_18_6_5() {
    let listing = "cs_5_0
dcl_uav_structured u0, 32
dcl_input vThreadGroupID.xyz
dcl_input vThreadIDInGroup.xyz
dcl_input vThreadIDInGroupFlattened
dcl_input vThreadID.xyz
dcl_temps 2
dcl_thread_group 3, 2, 2
imad r0.x, vThreadGroupID.z, l(2), vThreadGroupID.x
imad r0.x, r0.x, l(12), vThreadIDInGroupFlattened.x
mov r1.xyz, vThreadID.xyzx
mov r1.w, vThreadIDInGroupFlattened.x
store_structured u0.xyzw, r0.x, l(0), r1.xyzw
mov r1.xyz, vThreadGroupID.xyzx
mov r1.w, l(0)
store_structured u0.xyzw, r0.x, l(16), r1.xyzw
ret
";
    let out = dispatch(listing, vec![buffer_uav(&[0; 48 * 8], structured(32, 48))], [2, 1, 2]);
    let w = words(&out.uavs[0].as_ref().unwrap().bytes);
    for gz in 0..2u32 {
        for gx in 0..2u32 {
            for flat in 0..12u32 {
                let (x, y, z) = (flat % 3, flat / 3 % 2, flat / 6);
                let slot = ((gz * 2 + gx) * 12 + flat) as usize * 8;
                assert_eq!(
                    &w[slot..slot + 8],
                    &[gx * 3 + x, y, gz * 2 + z, flat, gx, 0, gz, 0],
                    "group ({gx}, 0, {gz}) thread {flat}"
                );
            }
        }
    }
    assert_eq!(out.stats.threads, 48);
    assert_eq!(out.stats.groups, 4);
}

/// A 64-thread group (two batches) stores into shared memory, waits at the barrier, then reads the word of thread
/// 63 - i: without the barrier the first batch would read the second's words before they were written (zeros).
#[test]
fn a_barrier_makes_the_whole_group_wait() {
    let listing = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_input vThreadGroupID.x
dcl_temps 2
dcl_tgsm_raw g0, 256
dcl_thread_group 64, 1, 1
ishl r0.x, vThreadIDInGroupFlattened.x, l(2)
imad r1.x, vThreadGroupID.x, l(100), vThreadIDInGroupFlattened.x
store_raw g0.x, r0.x, r1.x
sync_g_t
iadd r0.y, l(252), -r0.x
ld_raw r1.x, r0.y, g0.xxxx
imad r0.x, vThreadGroupID.x, l(256), r0.x
store_raw u0.x, r0.x, r1.x
ret
";
    let out = dispatch(listing, vec![buffer_uav(&[0; 128], raw(128))], [2, 1, 1]);
    let w = words(&out.uavs[0].as_ref().unwrap().bytes);
    for g in 0..2u32 {
        for i in 0..64u32 {
            assert_eq!(w[(g * 64 + i) as usize], g * 100 + 63 - i, "group {g} thread {i}");
        }
    }
}

/// Atomics on a raw UAV (22.17.8-16, 24): 40 threads each add 1 + i, or in bit i % 32, max and min their index, and
/// a compare-store that only the thread whose index equals the word's current value can make. The sums are
/// order-independent: 40 + 780 = 820; or of bits 0..31 = all ones; umax 39; imin -39 (as the signed negated index);
/// the compare-store writes once.
#[test]
fn atomics_combine_every_thread() {
    let listing = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 8, 1, 1
iadd r0.x, vThreadID.x, l(1)
atomic_iadd u0, l(0), r0.x
ishl r0.y, l(1), vThreadID.x
atomic_or u0, l(4), r0.y
atomic_umax u0, l(8), vThreadID.x
ineg r0.z, vThreadID.x
atomic_imin u0, l(12), r0.z
atomic_cmp_store u0, l(16), vThreadID.x, l(100)
imm_atomic_iadd r1.x, u0, l(20), l(2)
ishl r0.w, vThreadID.x, l(2)
iadd r0.w, r0.w, l(32)
store_raw u0.x, r0.w, r1.x
atomic_and u0, l(24), l(0xfffffffe)
atomic_xor u0, l(28), l(0x80000000)
ret
";
    let mut initial = vec![0u32; 8 + 40];
    // cmp_store at byte 16: only thread 7's index equals the word; it writes 100, which no index equals.
    initial[4] = 7;
    initial[6] = 0xffff_ffff;
    let out = dispatch(listing, vec![buffer_uav(&initial, raw(48))], [5, 1, 1]);
    let w = words(&out.uavs[0].as_ref().unwrap().bytes);
    assert_eq!(w[0], 820);
    assert_eq!(w[1], u32::MAX);
    assert_eq!(w[2], 39);
    assert_eq!(w[3] as i32, -39);
    assert_eq!(w[4], 100);
    assert_eq!(w[5], 80);
    assert_eq!(w[6], 0xffff_fffe);
    assert_eq!(w[7], 0, "40 xors of the sign bit cancel");
    // imm_atomic_iadd returned every multiple of 2 below 80 once, in some order.
    let mut returned: Vec<u32> = w[8..48].to_vec();
    returned.sort_unstable();
    assert_eq!(returned, (0..40).map(|i| i * 2).collect::<Vec<_>>());
}

/// Out-of-bounds accesses (22.4.10-13, 22.17.8): a load past the end gives 0, a store past the end writes nothing,
/// the part of a store inside the buffer is written.
#[test]
fn out_of_bounds_reads_zero_and_writes_nothing() {
    let listing = "cs_5_0
dcl_uav_raw u0
dcl_uav_structured u1, 8
dcl_temps 1
dcl_thread_group 1, 1, 1
ld_raw r0.xyzw, l(8), u0.xyzw
store_raw u0.xyzw, l(24), r0.xyzw
store_structured u1.xy, l(1), l(0), l(5, 6, 0, 0)
store_structured u1.xy, l(2), l(0), l(9, 9, 0, 0)
ld_structured r0.xy, l(1), l(4), u1.xyxx
store_structured u1.x, l(0), l(0), r0.x
ret
";
    let out = dispatch(
        listing,
        vec![
            buffer_uav(&[1, 2, 3, 4, 5, 6, 7, 8], raw(8)),
            buffer_uav(&[0; 4], structured(8, 2)),
        ],
        [1, 1, 1],
    );
    // ld_raw at byte 8 reads words 2..5 = (3, 4, 5, 6); store_raw at byte 24 writes words 6, 7 and drops 8, 9.
    assert_eq!(words(&out.uavs[0].as_ref().unwrap().bytes), [1, 2, 3, 4, 5, 6, 3, 4]);
    // element 1 = (5, 6); element 2 is past the end; ld_structured of element 1 at byte 4 reads (6, 0-past-stride).
    assert_eq!(words(&out.uavs[1].as_ref().unwrap().bytes), [6, 0, 5, 6]);
}

/// Typed stores convert through the view's format (22.4.9, 3.2.3.6 FLOAT -> UNORM: clamped, NaN to 0, rounded to
/// nearest): 0.5 -> 128 (127.5 rounds up), -1 -> 0, 2 -> 255, NaN -> 0.
#[test]
fn typed_stores_convert_through_the_format() {
    let listing = "cs_5_0
dcl_uav_typed_texture2d (float,float,float,float) u0
dcl_input vThreadID.xy
dcl_thread_group 2, 1, 1
store_uav_typed u0.xyzw, vThreadID.xyyy, l(0.5, -1.0, 2.0, 0x7fc00000)
ret
";
    let texture = crate::api::resource::Texture::new(
        crate::api::resource::TextureShape {
            dimension: crate::api::enums::ResourceDimension::Texture2D,
            format: Format::R8G8B8A8Unorm,
            width: 2,
            height: 2,
            depth: 1,
            array_size: 1,
            mip_levels: 1,
            sample_count: 1,
        },
        vec![vec![7u8; 16].into()],
    )
    .unwrap();
    let binding = UnorderedAccessViewBinding {
        resource: Arc::new(Resource::Texture(texture)),
        desc: UnorderedAccessViewDesc {
            format: Format::R8G8B8A8Unorm,
            dimension: UavDimension::Texture2D,
            ..Default::default()
        },
        initial_count: None,
    };
    let out = dispatch(listing, vec![Some(binding)], [1, 1, 1]);
    assert_eq!(
        out.uavs[0].as_ref().unwrap().bytes,
        [128, 0, 255, 0, 128, 0, 255, 0, 7, 7, 7, 7, 7, 7, 7, 7]
    );
}

/// `imm_atomic_alloc` (22.17.17) returns the counter before its increment: 6 threads from an initial count of 3
/// take 3..8 and leave 9; consume returns the count after its decrement.
#[test]
fn the_hidden_counter_counts() {
    let listing = "cs_5_0
dcl_uav_structured_opc u0, 4
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 6, 1, 1
imm_atomic_alloc r0.x, u0
store_structured u0.x, r0.x, l(0), vThreadID.x
ret
";
    let mut binding = buffer_uav(
        &[u32::MAX; 10],
        UnorderedAccessViewDesc {
            append: true,
            ..structured(4, 10)
        },
    );
    binding.as_mut().unwrap().initial_count = Some(3);
    let out = dispatch(listing, vec![binding], [1, 1, 1]);
    let uav = out.uavs[0].as_ref().unwrap();
    assert_eq!(uav.counter, Some(9));
    let w = words(&uav.bytes);
    assert_eq!(&w[..3], &[u32::MAX; 3]);
    let mut appended = w[3..9].to_vec();
    appended.sort_unstable();
    assert_eq!(appended, [0, 1, 2, 3, 4, 5]);
    assert_eq!(w[9], u32::MAX);
}

/// Hostile sizes are refused before any work: too many groups in a dimension, a work limit.
#[test]
fn budgets_and_limits() {
    // 1000 iterations of four instructions per thread: 4 million units for one group of 1024 threads.
    let listing = "cs_5_0
dcl_temps 1
dcl_thread_group 1024, 1, 1
mov r0.x, l(0)
loop
  iadd r0.x, r0.x, l(1)
  uge r0.y, r0.x, l(1000)
  breakc_nz r0.y
endloop
ret
";
    let state = DispatchState {
        compute_shader: program(listing),
        bindings: StageBindings::default(),
        uavs: Vec::new(),
        groups: [65536, 1, 1],
    };
    let refused = run_dispatch(&state, &DispatchOptions::default()).unwrap_err();
    assert!(refused.to_string().contains("65535"), "{refused}");
    let state = DispatchState {
        groups: [65535, 65535, 65535],
        ..state
    };
    let options = DispatchOptions {
        work_limit: 1 << 20,
        ..Default::default()
    };
    let budget = run_dispatch(&state, &options).unwrap_err();
    assert_eq!(budget.kind, ErrorKind::Budget, "{budget}");
}

/// 18.6.6 leaves the order of thread groups and of threads open: a word two threads store different values to ends
/// as whichever ran last, and the output says which words those are; the same value, one thread's own stores,
/// stores a barrier orders, and atomics that commute depend on no order.
#[test]
fn results_that_depend_on_the_thread_order_are_flagged() {
    // every thread of 2 groups of 2 stores: word 0 <- its flattened index (different values: order-dependent),
    // word 1 <- 7 (the same value: not), word 2 + 4 * thread <- 1 then 2 (its own: not), word 3 <- atomic add 1 (not)
    let listing = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 2, 1, 1
store_raw u0.x, l(0), vThreadID.x
store_raw u0.x, l(4), l(7)
ishl r0.x, vThreadID.x, l(4)
iadd r0.x, r0.x, l(32)
store_raw u0.x, r0.x, l(1)
store_raw u0.x, r0.x, l(2)
atomic_iadd u0, l(12), l(1)
ret
";
    let out = dispatch(listing, vec![buffer_uav(&[0; 24], raw(24))], [2, 1, 1]);
    let order = out.order[0].as_ref().unwrap();
    assert_eq!(order.elements, [0], "only word 0 depends on the order");
    assert!(!order.counter && !order.incomplete);
    let written = words(&out.uavs[0].as_ref().unwrap().bytes);
    assert_eq!(
        written[..4],
        [3, 7, 0, 4],
        "the last thread's value, the shared one, the count"
    );

    // one group: thread 0 stores, a barrier with a UAV fence, thread 1 stores: ordered (22.17.7)
    let listing = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_thread_group 2, 1, 1
if_z vThreadIDInGroupFlattened
  store_raw u0.x, l(0), l(5)
endif
sync_uglobal_t
if_nz vThreadIDInGroupFlattened
  store_raw u0.x, l(0), l(6)
endif
ret
";
    let out = dispatch(listing, vec![buffer_uav(&[0; 1], raw(1))], [1, 1, 1]);
    assert!(out.order[0].as_ref().unwrap().is_none());
    assert_eq!(words(&out.uavs[0].as_ref().unwrap().bytes), [6]);
    // the same in two groups: no barrier orders groups
    let out = dispatch(listing, vec![buffer_uav(&[0; 1], raw(1))], [2, 1, 1]);
    assert_eq!(out.order[0].as_ref().unwrap().elements, [0]);
}

/// Which slot of an append buffer each thread gets depends on the order (its hidden counter, 22.17.17).
#[test]
fn a_counter_shared_by_unordered_threads_is_flagged() {
    let listing = "cs_5_0
dcl_uav_structured u0, 4
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 2, 1, 1
imm_atomic_alloc r0.x, u0
store_structured u0.x, r0.x, l(0), vThreadID.x
ret
";
    let mut view = buffer_uav(
        &[0; 4],
        UnorderedAccessViewDesc {
            append: true,
            ..structured(4, 4)
        },
    );
    if let Some(binding) = view.as_mut() {
        binding.initial_count = Some(0);
    }
    let out = dispatch(listing, vec![view], [1, 1, 1]);
    let order = out.order[0].as_ref().unwrap();
    assert!(order.counter);
    assert!(order.elements.is_empty(), "each thread wrote its own slot");
}
