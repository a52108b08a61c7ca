//! Shared by the integration tests that feed the library malformed input.
//!
//! [`largest_allocation_in`] runs a closure and reports the largest single allocation (or reallocation) the calling
//! thread asked for meanwhile, through a global allocator that wraps the system's. It is per thread, so tests running
//! in parallel do not see each other's allocations, and it catches a `Vec::with_capacity(count_from_the_file)` even
//! when the pages are never touched.

#![allow(unsafe_code, dead_code)] // a global allocator is unsafe by definition; not every test binary uses every helper

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// The largest allocation size this thread requested since the last reset.
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

/// The system allocator, noting each request's size.
pub struct Tracking;

fn note(size: usize) {
    // try_with: during thread teardown the slot may be gone; allocations then are not the code under test
    let _ = LARGEST.try_with(|largest| largest.set(largest.get().max(size)));
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds the GlobalAlloc contract.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Tracking = Tracking;

/// Runs `f` and returns its result with the largest single allocation, in bytes, this thread requested during it.
pub fn largest_allocation_in<T>(f: impl FnOnce() -> T) -> (T, usize) {
    LARGEST.with(|largest| largest.set(0));
    let result = f();
    (result, LARGEST.with(Cell::get))
}
