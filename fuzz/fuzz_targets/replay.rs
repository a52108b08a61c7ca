//! A capture's bytes from anywhere, replayed: its first draws run to their end through the one replay path (under
//! small limits of memory and work) and are compared, as `iridia replay` does; then its first resolve. Anything may
//! fail with an error; nothing may panic.
#![no_main]

use iridia::draw::ShaderCache;
use iridia::replay::{ReplayOptions, ReplaySession, replay_resolve};
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let Ok(mut capture) = iridia::capture::Capture::open(data.to_vec()) else {
        return;
    };
    capture.set_draw_memory_limit(32 << 20);
    let mut options = ReplayOptions::default();
    options.draw.work_limit = 1 << 20;
    options.draw.threads = 1;
    let mut shaders = ShaderCache::new();
    for index in 0..capture.draw_count().min(2) {
        let Ok(draw) = capture.draw(index) else {
            continue;
        };
        let Ok(mut session) = ReplaySession::start(Arc::new(draw), &mut shaders, &options) else {
            continue;
        };
        let _ = session.run_to_end(None);
    }
    if !capture.resolves().is_empty()
        && let Ok(resolve) = capture.resolve(0)
    {
        let _ = replay_resolve(&resolve, &options.tolerance);
    }
});
