//! A capture's bytes from anywhere: opening reads the archive's directory and manifest and checks every draw; then
//! every draw and resolve is read (its blobs inflated and checked), as `iridia info --check` does. Anything may fail
//! with an error; nothing may panic, and memory stays within the limits set here.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(mut capture) = iridia::capture::Capture::open(data.to_vec()) else {
        return;
    };
    capture.set_draw_memory_limit(64 << 20);
    capture.set_cache_limit(16 << 20);
    let _ = capture.draws();
    for index in 0..capture.draw_count().min(16) {
        let _ = capture.draw(index);
    }
    for index in 0..capture.resolves().len().min(4) {
        let _ = capture.resolve(index);
    }
});
