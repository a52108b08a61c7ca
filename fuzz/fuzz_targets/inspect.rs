//! A capture's bytes from anywhere, one pixel inspected (its first bytes pick the pixel): the pixel's history, its
//! verdict and its program traces, as `iridia inspect` gives them, under small limits. Anything may fail with an
//! error; nothing may panic.
#![no_main]

use iridia::capture::TargetSlot;
use iridia::draw::ShaderCache;
use iridia::inspect::{InspectOptions, inspect_pixel};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // the pixel from the archive's first bytes (a ZIP's local header: they vary little, so any pixel is tried
    // through the corpus's variety and the fuzzer's mutations alike)
    let x = u32::from(data.get(6).copied().unwrap_or(0)) % 64;
    let y = u32::from(data.get(7).copied().unwrap_or(0)) % 64;
    let Ok(mut capture) = iridia::capture::Capture::open(data.to_vec()) else {
        return;
    };
    capture.set_draw_memory_limit(32 << 20);
    let mut options = InspectOptions::default();
    options.replay.draw.work_limit = 1 << 20;
    options.replay.draw.threads = 1;
    let _ = inspect_pixel(
        &mut capture,
        0,
        x,
        y,
        TargetSlot::RenderTarget(0),
        &mut ShaderCache::new(),
        &options,
    );
});
