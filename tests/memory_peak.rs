//! Memory measured by its peak (issue 13): a counting allocator records the most bytes live at once while the library
//! works, so that a whole-target copy made and dropped at once is seen, not only the largest single allocation.

// Test code: a failed step is a failed test. The allocator wraps the system's, which needs `unsafe impl`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    unsafe_code
)]

use iridia::draw::{DrawOptions, PreparedDraw, ShaderCache};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes live and the most live at once.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// One measurement at a time (the tests of this file run on threads of one process).
static MEASURING: Mutex<()> = Mutex::new(());

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::SeqCst).saturating_add(bytes);
    PEAK.fetch_max(live, Ordering::SeqCst);
}

// SAFETY: every call is passed to the system allocator unchanged; only the counts are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is the system allocator's.
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            grew(layout.size());
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(pointer, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        let pointer = unsafe { System.alloc_zeroed(layout) };
        if !pointer.is_null() {
            grew(layout.size());
        }
        pointer
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
            grew(new_size);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs the calling test alone among this file's tests, whose allocations would count in its figures, until dropped.
fn alone() -> std::sync::MutexGuard<'static, ()> {
    MEASURING.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The most bytes live at once while `work` runs, above what was live when it began (call within [`alone`]).
fn peak_of<T>(work: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let result = work();
    (result, PEAK.load(Ordering::SeqCst).saturating_sub(before))
}

#[test]
fn preparing_a_draw_copies_its_targets_once() {
    let _alone = alone();
    // the colour scene on a 2048x2048 R32G32B32A32_FLOAT target (64 MiB) with a D32_FLOAT depth buffer (16 MiB):
    // preparing the draw makes the targets it draws into from their contents before it, one copy of each, and no
    // more (a clone of every render target made only to read their formats came to 64 MiB more)
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/draw/demo");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("scene_color.json")).unwrap()).unwrap();
    let side = 2048u32;
    json["width"] = side.into();
    json["height"] = side.into();
    json["viewport"]["w"] = side.into();
    json["viewport"]["h"] = side.into();
    let mut load = iridia::description::file_loader(&folder.join("scene_color.json"));
    let description = iridia::description::read(&json.to_string(), &mut load).unwrap();
    let state = description.draws[0].clone();
    let targets = (side as usize * side as usize) * (16 + 4);
    let mut cache = ShaderCache::new();
    let (prepared, peak) = peak_of(|| PreparedDraw::new(&state, &mut cache, DrawOptions::default()).map(|_| ()));
    prepared.unwrap();
    assert!(
        peak <= targets + (targets / 8),
        "preparing held {peak} bytes at once for {targets} bytes of targets"
    );
}

#[test]
fn a_writer_does_not_keep_shared_buffers_alive_after_their_last_use() {
    let _alone = alone();
    // a recorder shares each readback with the writer as an Arc<Vec<u8>> (made without copying the bytes); the
    // writer remembers the buffers it hashed by a weak reference, which, for an Arc<[u8]>, kept the whole
    // allocation, bytes included, until the capture ended: a frame's every readback at once
    let mut writer = iridia::capture::CaptureWriter::in_memory();
    writer.set_deflate_level(1);
    let size = 32 << 20;
    let (live_after, _) = peak_of(|| {
        let before = LIVE.load(Ordering::SeqCst);
        for fill in 0..4u8 {
            let readback = std::sync::Arc::new(vec![fill; size]);
            let first = writer.add_shared(&readback).unwrap();
            // the same buffer again is the same blob, hashed once
            assert_eq!(writer.add_shared(&readback).unwrap().sha256, first.sha256);
        }
        LIVE.load(Ordering::SeqCst).saturating_sub(before)
    });
    assert!(
        live_after < size / 4,
        "{live_after} bytes still live after four {size}-byte buffers were written and dropped"
    );
}
